import CLCMS2

/// The colour space an image file's pixel values are in, as `adjust fidelity` reads it to bring
/// both renders to sRGB: the ICC profile embedded in the file (a JPEG's `ICC_PROFILE` APP2
/// chunks, a HEIC's `colr` profile), or none. An image without one is taken as sRGB, as browsers
/// and Photos itself take it.
package struct ColourProfile: Equatable, Sendable {
    /// The profile's bytes; nil for an untagged image.
    package var icc: [UInt8]?

    /// The profile of an untagged image: sRGB by convention.
    package static let untagged = ColourProfile(icc: nil)

    package init(icc: [UInt8]?) { self.icc = icc.flatMap { $0.isEmpty ? nil : $0 } }

    /// The profile embedded in a JPEG header (any bytes from SOI on; reading stops at SOS), or
    /// `.untagged` when there is none or its chunks are inconsistent (not exactly chunks 1…n of n).
    package init(jpegHeader: [UInt8]) {
        let signature = Array("ICC_PROFILE\0".utf8)
        let chunks = (JPEGHeaderSegments.walk(jpegHeader) ?? []).filter {
            $0.marker == 0xE2 && $0.payload.count > signature.count + 2 && $0.payload.starts(with: signature)
        }
        let numbered = chunks.map { chunk -> (index: Int, count: Int, bytes: ArraySlice<UInt8>) in
            let start = chunk.payload.startIndex + signature.count
            return (Int(chunk.payload[start]), Int(chunk.payload[start + 1]), chunk.payload[(start + 2)...])
        }.sorted { $0.index < $1.index }
        guard !numbered.isEmpty,
              numbered.enumerated().allSatisfy({ $0.element.index == $0.offset + 1 && $0.element.count == numbered.count })
        else { self.init(icc: nil); return }
        self.init(icc: numbered.flatMap(\.bytes))
    }

    /// The profile's description (its `desc` tag, e.g. "Display P3", "sRGB IEC61966-2.1"),
    /// "untagged (sRGB)" without a profile, "unreadable ICC profile" when Little CMS cannot open it.
    package var description: String {
        guard let icc else { return "untagged (sRGB)" }
        return icc.withUnsafeBytes { bytes -> String in
            guard let profile = cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(bytes.count)) else {
                return "unreadable ICC profile"
            }
            defer { cmsCloseProfile(profile) }
            var text = [CChar](repeating: 0, count: 256)
            let length = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &text, cmsUInt32Number(text.count))
            let name = length > 0 ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            return name.isEmpty ? "ICC profile without a description" : name
        }
    }
}
