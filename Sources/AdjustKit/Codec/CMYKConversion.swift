import CLCMS2

/// Turns the CMYK pixels libjpeg delivers for a CMYK or YCCK JPEG into sRGB, so that everything
/// above the decoder sees RGB as for any other JPEG.
///
/// With the file's ICC profile (a CMYK output profile, as print software embeds) the conversion
/// is Little CMS's transform from that profile to sRGB, perceptual intent — what `jpgicc` does
/// by default. Without one, or with a profile Little CMS cannot use, it is the naive formula
/// R = (1 − C)(1 − K), G = (1 − M)(1 − K), B = (1 − Y)(1 − K), rounded, which ignores ink
/// behaviour entirely (colours are approximate; a warning says so). Files with an Adobe APP14
/// marker store inverted values (0 = full ink), as Adobe's applications write them; both ways
/// read them so.
final class CMYKConversion {
    /// Why the colours may be off, one line; nil when the profile was used.
    let warning: String?
    private let transform: cmsHTRANSFORM?
    private let inverted: Bool

    /// - Parameters:
    ///   - profile: the ICC profile reassembled from the file's APP2 chunks, or nil.
    ///   - adobeInverted: the file has an Adobe APP14 marker.
    init(profile: [UInt8]?, adobeInverted: Bool) {
        inverted = adobeInverted
        guard let profile, !profile.isEmpty else {
            (transform, warning) = (nil, "CMYK JPEG without an ICC profile: converted to RGB by the naive formula, colours approximate")
            return
        }
        let made: cmsHTRANSFORM? = profile.withUnsafeBytes { bytes in
            guard let input = cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(bytes.count)) else { return nil }
            defer { cmsCloseProfile(input) }
            guard cmsGetColorSpace(input) == cmsSigCmykData, let output = cmsCreate_sRGBProfile() else { return nil }
            defer { cmsCloseProfile(output) }
            return cmsCreateTransform(input, adobeInverted ? adjust_lcms_TYPE_CMYK_8_REV : adjust_lcms_TYPE_CMYK_8,
                                      output, adjust_lcms_TYPE_RGB_8, cmsUInt32Number(INTENT_PERCEPTUAL), 0)
        }
        transform = made
        warning = made == nil
            ? "the CMYK JPEG's ICC profile is not a CMYK profile Little CMS can use: converted to RGB by the naive formula, colours approximate"
            : nil
    }

    deinit {
        if let transform { cmsDeleteTransform(transform) }
    }

    /// Converts `count` CMYK pixels (4 bytes each) to RGB (3 bytes each).
    func convert(_ cmyk: UnsafePointer<UInt8>, into rgb: UnsafeMutablePointer<UInt8>, count: Int) {
        if let transform {
            cmsDoTransform(transform, cmyk, rgb, cmsUInt32Number(count))
            return
        }
        for i in 0..<count {
            let p = cmyk + 4 * i
            // Ink amounts → the light each ink lets through (255 = none of that ink).
            let (c, m, y, k) = inverted ? (p[0], p[1], p[2], p[3]) : (255 - p[0], 255 - p[1], 255 - p[2], 255 - p[3])
            rgb[3 * i] = Self.product(c, k)
            rgb[3 * i + 1] = Self.product(m, k)
            rgb[3 * i + 2] = Self.product(y, k)
        }
    }

    /// a·b/255, rounded.
    @inline(__always)
    private static func product(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8((Int(a) * Int(b) + 127) / 255)
    }
}
