/// How much of a JPEG's start libjpeg reads before the first scan's data: the bytes a header read
/// (`JPEGDecoder.header(of:)`, TurboJPEG or the shim) and the metadata readers (EXIF, XMP, ICC:
/// they stop at SOS) need, so that a streamed render holds only these in memory.
///
/// The walk follows libjpeg-turbo's own marker reader (jdmarker.c, `read_markers` and
/// `next_marker`): bytes before a marker and fill bytes skipped, 0xFF00 skipped, TEM and RST0–7
/// without a length, every other marker it accepts skipped by its length (a length under 2 counts
/// as 2, as libjpeg's `skip_variable` does), up to the first SOS segment (a length under 3 counts
/// as 3: libjpeg reads the component count before it checks the length). A marker libjpeg
/// refuses (a second SOI, EOI before any scan, an unsupported SOF, an unknown marker) ends the
/// walk there. Where the walk and libjpeg could part — a segment whose length lies, which libjpeg
/// reads by its content and then refuses — libjpeg stops within `margin` bytes of where the walk
/// put that segment's end, so the extent has `margin` bytes more. A file that ends before SOS is
/// all header. So a header read of the prefix returns what one of the whole file does: the same
/// size, warnings and errors.
enum JPEGHeaderExtent {
    /// Bytes kept past the SOS segment: more than libjpeg reads past the declared end of any
    /// segment it then refuses (DQT: at most one 128-byte table; SOF: 6 bytes).
    static let margin = 256

    /// The prefix length of a file of `fileSize` bytes that holds its header, reading through
    /// `byte(i)`: the file's byte i, nil past its end (bytes are asked for in increasing order,
    /// each at most a few bytes past the last).
    static func length<E: Error>(fileSize: Int, byte: (Int) throws(E) -> UInt8?) throws(E) -> Int {
        guard let first = try byte(0), let second = try byte(1), first == 0xFF, second == 0xD8 else {
            // Not a JPEG: the decoder refuses it by its first bytes.
            return min(fileSize, 16)
        }
        var position = 2
        func next() throws(E) -> UInt8? {
            guard let value = try byte(position) else { return nil }
            position += 1
            return value
        }
        func length() throws(E) -> Int? {
            guard let high = try byte(position), let low = try byte(position + 1) else { return nil }
            return Int(high) << 8 | Int(low)
        }
        while true {
            // next_marker
            var code: UInt8
            repeat {
                guard var c = try next() else { return fileSize }
                while c != 0xFF {
                    guard let n = try next() else { return fileSize }
                    c = n
                }
                repeat {
                    guard let n = try next() else { return fileSize }
                    c = n
                } while c == 0xFF
                code = c
            } while code == 0x00
            switch code {
            case 0xDA:   // SOS: get_sos reads the length and the component count before checking either
                guard let length = try length() else { return fileSize }
                return min(fileSize, position + max(length, 3) + margin)
            case 0x01, 0xD0...0xD7:   // TEM, RST0–7: no length
                continue
            case 0xC0, 0xC1, 0xC2, 0xC9, 0xCA,   // the SOFs libjpeg decodes
                 0xC4, 0xCC, 0xDB, 0xDD,         // DHT, DAC, DQT, DRI
                 0xE0...0xEF, 0xFE, 0xDC:        // APPn, COM, DNL
                guard let length = try length() else { return fileSize }
                position += max(length, 2)
            default:   // refused by libjpeg where it stands
                return min(fileSize, position + margin)
            }
        }
    }
}
