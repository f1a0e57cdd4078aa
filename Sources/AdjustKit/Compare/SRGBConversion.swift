import CLCMS2
import Foundation

/// Converts 8-bit RGBA pixels from the colour space a `ColourProfile` names to 8-bit sRGB with
/// Little CMS (relative colorimetric intent, no black-point compensation: Display P3 and sRGB
/// share their white and black, so this is the plain matrix-and-curves conversion; colours
/// outside sRGB are clipped). `adjust fidelity` compares renders only after this, so that a
/// Display P3 render and an sRGB one of the same scene compare equal.
///
/// An untagged image is sRGB already and is left as it is. Alpha is left as it is.
package enum SRGBConversion {
    /// Why a profile could not be used; the image is then left as it is (taken as sRGB).
    package struct Unusable: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// Converts `image` in place from `profile` to sRGB. Throws, leaving `image` untouched, when
    /// Little CMS cannot read the profile or it is not an RGB profile.
    package static func convert(_ image: inout RGBA8Image, from profile: ColourProfile) throws(Unusable) {
        guard let icc = profile.icc, image.size.pixelCount > 0 else { return }
        let transform: cmsHTRANSFORM? = icc.withUnsafeBytes { bytes in
            guard let input = cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(bytes.count)) else { return nil }
            defer { cmsCloseProfile(input) }
            guard cmsGetColorSpace(input) == cmsSigRgbData, let output = cmsCreate_sRGBProfile() else { return nil }
            defer { cmsCloseProfile(output) }
            // No cache: the transform is shared by the threads below.
            return cmsCreateTransform(input, adjust_lcms_TYPE_RGBA_8, output, adjust_lcms_TYPE_RGBA_8,
                                      cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(cmsFLAGS_NOCACHE))
        }
        guard let transform else {
            throw Unusable(description: "its ICC profile (\(profile.description)) is not an RGB profile Little CMS can use")
        }
        defer { cmsDeleteTransform(transform) }
        let width = image.size.width, height = image.size.height
        let parts = min(height, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            let base = pixels.baseAddress!
            ParallelRows.forEachPart(of: 0..<height, parts: parts) { _, rows in
                guard !rows.isEmpty else { return }
                let start = base + rows.lowerBound * width * 4
                cmsDoTransform(transform, start, start, cmsUInt32Number(rows.count * width))
            }
        }
    }
}
