/// Conversions between the working space and linear light, for kernels whose formula is defined
/// in linear light (channel gains, luminance mixes) whichever working space the render uses.
extension WorkingSpace {
    /// Working value → linear light.
    @inline(__always)
    func linear(_ working: Float) -> Float { self == .linear ? working : SRGBTransfer.decode(working) }

    /// Linear light → working value.
    @inline(__always)
    func working(fromLinear linear: Float) -> Float { self == .linear ? linear : SRGBTransfer.encode(linear) }
}

/// Rec. 709 / sRGB luminance of linear-light RGB.
@inline(__always)
func linearLuminance(_ r: Float, _ g: Float, _ b: Float) -> Float { 0.2126 * r + 0.7152 * g + 0.0722 * b }
