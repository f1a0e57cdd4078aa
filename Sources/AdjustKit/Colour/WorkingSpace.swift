/// Where the colour filters do their arithmetic (filters.md §0) — the one switch, decided here.
package enum WorkingSpace: String, CaseIterable, Sendable {
    /// Linear light: 8-bit input decoded with the sRGB curve, the result encoded back. What Photos did.
    case linear
    /// The encoded values themselves (what the seed code's NSNull working colour space did).
    case srgb

    /// 8-bit encoded sample → working value, for each of the 256 codes.
    package var fromByte: [Float] {
        (0...255).map { code in
            let encoded = Float(code) / 255
            return self == .linear ? SRGBTransfer.decode(encoded) : encoded
        }
    }

    /// Working value → sRGB-encoded value (what photo-effect tables and tone curves read).
    @inline(__always)
    package func encoded(_ working: Float) -> Float { self == .linear ? SRGBTransfer.encode(working) : working }

    /// sRGB-encoded value → working value.
    @inline(__always)
    package func working(fromEncoded encoded: Float) -> Float { self == .linear ? SRGBTransfer.decode(encoded) : encoded }

    /// Working value → 8-bit output: round half up of clamp(encoded, 0, 1)·255.
    @inline(__always)
    package func byte(_ working: Float) -> UInt8 { Self.byte(encoded: encoded(working)) }

    /// Encoded value → 8-bit code: round half up of clamp(v, 0, 1)·255 (filters.md §0).
    @inline(__always)
    package static func byte(encoded v: Float) -> UInt8 {
        let x = v * 255 + 0.5
        guard x >= 1 else { return 0 }        // also NaN
        return x >= 255 ? 255 : UInt8(Int(x))  // truncation is ⌊x⌋ here, without a libm call
    }
}
