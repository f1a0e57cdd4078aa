/// A libjpeg-turbo DCT scaling factor n/8 (n = 1…16).
public struct DecodeScale: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// n, 1…16; 8 is full size.
    public let numerator: Int
    /// Always 8: scales are counted in eighths.
    public static let denominator = 8
    /// 8/8: decode at full size.
    public static let full = DecodeScale(uncheckedNumerator: 8)

    /// nil unless 1 ≤ numerator ≤ 16.
    public init?(numerator: Int) {
        guard (1...16).contains(numerator) else { return nil }
        self.numerator = numerator
    }

    private init(uncheckedNumerator: Int) { numerator = uncheckedNumerator }

    /// Parses "n/8", "1/2", "1/4", "1/8", "3/8", or "1".
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let top = Int(parts[0]), top > 0 else { return nil }
        let bottom = parts.count == 2 ? Int(parts[1]) : 1
        guard let bottom, bottom > 0, (top * 8) % bottom == 0 else { return nil }
        self.init(numerator: top * 8 / bottom)
    }

    /// n/8 as a number, e.g. 0.25 for 2/8.
    public var value: Double { Double(numerator) / Double(Self.denominator) }

    /// TurboJPEG's TJSCALED: ⌈dimension·n/8⌉.
    package func decodedSize(of size: PixelSize) -> PixelSize {
        PixelSize(width: (size.width * numerator + 7) / 8, height: (size.height * numerator + 7) / 8)
    }

    /// The reduced fraction, e.g. `1/4`, `3/8`, `1/1` for full size.
    public var description: String {
        let g = gcd(numerator, Self.denominator)
        return "\(numerator / g)/\(Self.denominator / g)"
    }

    private func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
