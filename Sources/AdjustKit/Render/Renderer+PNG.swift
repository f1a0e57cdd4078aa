extension Renderer {
    /// Renders `plan` from `original` into a PNG that `open(hasAlpha)` starts (to memory, or to
    /// the output's temporary file, its header chunks written), and finishes it. Returns the
    /// rendering with the file's bytes for a writer to memory, none for one to a file.
    ///
    /// An upright output is streamed: each row is compressed as the fused renderer hands it over,
    /// so the image is never whole in memory. A PNG says RGB or RGBA in IHDR, before its first row,
    /// and the output is RGB when every pixel is opaque (as `PNGCodec.encode` decides from the
    /// whole raster): so the colour type comes from the plan (`RenderPlan.isOpaqueForCertain`),
    /// and is checked on every row. Where the plan cannot promise opacity the rows go out RGBA;
    /// should every pixel come out opaque after all, or one not (a plan that promised wrongly),
    /// the image is rendered again with the other colour type (`open` is then called again, and
    /// must start over). EXIF orientations other than 1 need the whole image before their first
    /// row: the raster is rendered whole, oriented as it renders, then its rows are written.
    func renderPNG(_ plan: RenderPlan, original: OriginalImage,
                   open: (_ hasAlpha: Bool) throws -> PNGRowWriter) throws -> EncodedRendering {
        try withPixels(of: original, plan: plan) { pixels, program in
            try renderPNG(plan, pixels: pixels, program: program, open: open)
        }
    }

    func renderPNG(_ plan: RenderPlan, pixels: Pixels, program: ColourProgram,
                   open: (_ hasAlpha: Bool) throws -> PNGRowWriter) throws -> EncodedRendering {
        guard plan.orientation == .identity else {
            // The whole raster first (oriented as it renders), then its rows: RGB when every
            // pixel is opaque.
            let rendering = try render(plan, pixels: pixels, program: program)
            let writer = try open(!rendering.image.isOpaque)
            try writer.write(rendering.image)
            var encoded = EncodedRendering(bytes: try writer.finish(), format: .png, size: plan.orientedSize,
                                           notes: rendering.notes)
            encoded.decodeMs = rendering.decodeMs
            return encoded
        }
        let fused = FusedRenderer(plan: plan, program: program, decoder: decoder)
        let written: (writer: PNGRowWriter, decoded: (warnings: [String], decodeSeconds: Double))
        let guess = !(pngFirstPassIsRGB ?? plan.isOpaqueForCertain)
        if let first = try stream(fused, pixels: pixels, hasAlpha: guess, open: open) {
            written = first
        } else if let second = try stream(fused, pixels: pixels, hasAlpha: !guess, open: open) {
            written = second
        } else {
            // The same plan on the same pixels renders the same bytes: never reached.
            throw EncodeError(description: "PNG encoding failed: the render's transparency differed between two passes")
        }
        return Self.encoded(try written.writer.finish(), format: .png, size: plan.orientedSize, plan: plan, program: program,
                            decoded: written.decoded)
    }

    /// Streams the upright rows into a writer of the colour type `hasAlpha` says; nil (the writer
    /// abandoned) when the rows need the other: a pixel that is not opaque in an RGB image, or
    /// an RGBA image whose every pixel came out opaque.
    private func stream(_ fused: FusedRenderer, pixels: Pixels, hasAlpha: Bool,
                        open: (_ hasAlpha: Bool) throws -> PNGRowWriter)
        throws -> (writer: PNGRowWriter, decoded: (warnings: [String], decodeSeconds: Double))? {
        let writer = try open(hasAlpha)
        let width = fused.plan.outputSize.width
        let rgb = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 3)
        defer { rgb.deallocate() }
        // Written by the sink (one row at a time, on whichever of the render's threads runs its
        // task), read here once the pass is done.
        let opacity = RowOpacity()
        let decoded: (warnings: [String], decodeSeconds: Double)
        do {
            decoded = try run(fused, pixels: pixels) { _, row in
                if hasAlpha {
                    if opacity.allOpaque { opacity.allOpaque = RGBA8Image.isOpaque(row, count: width) }
                    try writer.write(rows: row, stride: width * 4, count: 1)
                } else {
                    guard Self.dropAlpha(row, count: width, into: rgb) else { throw NotOpaque() }
                    try writer.write(rows: rgb, stride: width * 3, count: 1)
                }
            }
        } catch is NotOpaque {
            return nil
        }
        return hasAlpha && opacity.allOpaque ? nil : (writer, decoded)
    }

    /// Copies an RGBA row's colour into `rgb`; false when a pixel is not opaque.
    private static func dropAlpha(_ row: UnsafePointer<UInt8>, count: Int, into rgb: UnsafeMutablePointer<UInt8>) -> Bool {
        var all: UInt8 = 255
        for i in 0..<count {
            rgb[i * 3] = row[i * 4]; rgb[i * 3 + 1] = row[i * 4 + 1]; rgb[i * 3 + 2] = row[i * 4 + 2]
            all &= row[i * 4 + 3]
        }
        return all == 255
    }
}

/// Thrown by the sink of an RGB stream at the first pixel that is not opaque: stops the pass.
private struct NotOpaque: Error {}

/// Whether every row seen so far was opaque: set by the sink, read after the pass.
private final class RowOpacity {
    var allOpaque = true
}
