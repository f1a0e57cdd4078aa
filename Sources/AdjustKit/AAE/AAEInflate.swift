import CZlib

/// Inflates raw DEFLATE (no zlib header: window bits −15), the encoding of `adjustmentData`,
/// through zlib, with a hard cap on the output: inflation runs in fixed-size steps and stops at the
/// first step that would pass the cap, so a deflate bomb costs at most `cap` bytes and the time to
/// produce them.
enum AAEInflate {
    /// Output produced per zlib call; the buffer grows by at most this past what is kept.
    private static let step = 64 << 10

    static func inflate(_ compressed: [UInt8], cap: Int) throws(AAEError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init_raw(&stream) == Z_OK else {
            throw .payloadNotDeflate("zlib could not start (\(String(cString: zError(Z_MEM_ERROR))))")
        }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: step)
        var status = Z_OK
        let result: Result<Void, AAEError> = compressed.withUnsafeBufferPointer { input in
            // zlib's next_in is not const; it never writes through it.
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while status != Z_STREAM_END {
                status = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = step - Int(stream.avail_out)
                switch status {
                case Z_OK, Z_STREAM_END:
                    break
                case Z_BUF_ERROR where produced == 0:
                    // No progress possible: the input ended before the stream did.
                    return .failure(.payloadNotDeflate("the stream is truncated"))
                case Z_BUF_ERROR:
                    break
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? String(cString: zError(status))
                    return .failure(.payloadNotDeflate(message))
                }
                guard output.count + produced <= cap else { return .failure(.inflatedTooLarge(limit: cap)) }
                output.append(contentsOf: chunk[0..<produced])
                if status != Z_STREAM_END, produced == 0, stream.avail_in == 0 {
                    return .failure(.payloadNotDeflate("the stream is truncated"))
                }
            }
            guard stream.avail_in == 0 else {
                return .failure(.payloadNotDeflate("\(stream.avail_in) bytes follow the end of the stream"))
            }
            return .success(())
        }
        try result.get()
        return output
    }
}
