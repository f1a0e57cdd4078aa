/// Adobe `.cube` text → `ColourCube` (the file format behind `--effect-lut`).
extension ColourCube {
    /// Reads Adobe `.cube` text: `#` comments (a whole line, or from a `#` that starts a word to the
    /// end of the line), blank lines, `TITLE "…"`, `LUT_3D_SIZE N` (2…256), optional
    /// `DOMAIN_MIN 0 0 0` / `DOMAIN_MAX 1 1 1`, then N³ lines of 3 numbers, red fastest. Keywords may
    /// come in any order, each at most once, before the data. Anything else is refused with a
    /// `CubeError`. Numbers are parsed locale-independently (Swift's `Float(_:)`) and must be finite.
    /// Lines may end in LF, CRLF or CR; a leading UTF-8 byte-order mark is skipped.
    package static func parse(_ text: String) throws(CubeError) -> ColourCube {
        var text = text
        let result: Result<ColourCube, CubeError> = text.withUTF8 { bytes in
            var parser = CubeParser(bytes: bytes)
            do throws(CubeError) {
                return .success(try parser.run())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// A single pass over the UTF-8 bytes of a `.cube` file.
private struct CubeParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var lineNumber = 0

    var size: Int?
    var seenKeywords: Set<String> = []
    var dataStarted = false
    var rows = 0
    var values: [Float] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // Skip a UTF-8 byte-order mark.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    mutating func run() throws(CubeError) -> ColourCube {
        while let line = nextLine() {
            try parseLine(line)
        }
        guard let size else { throw CubeError("no LUT_3D_SIZE line") }
        let expectedRows = size * size * size
        guard rows == expectedRows else {
            throw CubeError("expected \(expectedRows) table rows for LUT_3D_SIZE \(size), got \(rows)")
        }
        return ColourCube(checkedSize: size, values: values)
    }

    /// The byte range of the next line without its terminator (LF, CRLF or CR), or nil at the end.
    mutating func nextLine() -> Range<Int>? {
        let end = bytes.count
        guard position < end else { return nil }
        lineNumber += 1
        let start = position
        var i = position
        while i < end, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
        let line = start..<i
        if i < end {
            i += (bytes[i] == 0x0D && i + 1 < end && bytes[i + 1] == 0x0A) ? 2 : 1
        }
        position = i
        return line
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
    }

    /// The next whitespace-separated word in `line`, or nil at its end or at a `#` comment.
    func nextToken(_ line: inout Range<Int>) -> Range<Int>? {
        var i = line.lowerBound
        while i < line.upperBound, Self.isSpace(bytes[i]) { i += 1 }
        guard i < line.upperBound, bytes[i] != UInt8(ascii: "#") else {
            line = line.upperBound..<line.upperBound
            return nil
        }
        let start = i
        while i < line.upperBound, !Self.isSpace(bytes[i]) { i += 1 }
        line = i..<line.upperBound
        return start..<i
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    func number(_ range: Range<Int>) -> Float? {
        Float(string(range))
    }

    mutating func parseLine(_ line: Range<Int>) throws(CubeError) {
        var rest = line
        guard let first = nextToken(&rest) else { return }   // blank or comment line
        let head = bytes[first.lowerBound]
        let looksNumeric = (head >= UInt8(ascii: "0") && head <= UInt8(ascii: "9"))
            || head == UInt8(ascii: "-") || head == UInt8(ascii: "+") || head == UInt8(ascii: ".")
            || number(first) != nil                           // nan, inf, …: refused as non-finite below
        if looksNumeric {
            dataStarted = true
            let (r, g, b) = try threeNumbers(startingWith: first, rest: &rest)
            rows += 1
            values.append(r)
            values.append(g)
            values.append(b)
            return
        }

        let keyword = string(first)
        let known = ["TITLE", "LUT_3D_SIZE", "LUT_1D_SIZE", "DOMAIN_MIN", "DOMAIN_MAX"].contains(keyword)
        if dataStarted {
            throw CubeError(known ? "line \(lineNumber): \(keyword) after the table data"
                                  : "line \(lineNumber): '\(keyword)' is not a number")
        }
        switch keyword {
        case "TITLE", "LUT_3D_SIZE", "DOMAIN_MIN", "DOMAIN_MAX":
            guard seenKeywords.insert(keyword).inserted else {
                throw CubeError("line \(lineNumber): \(keyword) given twice")
            }
        case "LUT_1D_SIZE":
            throw CubeError("1-D tables (LUT_1D_SIZE) are not supported")
        default:
            throw CubeError("line \(lineNumber): unknown keyword '\(keyword)'")
        }

        switch keyword {
        case "TITLE":
            // The rest of the line must be one double-quoted string.
            var lo = rest.lowerBound, hi = rest.upperBound
            while lo < hi, Self.isSpace(bytes[lo]) { lo += 1 }
            while hi > lo, Self.isSpace(bytes[hi - 1]) { hi -= 1 }
            let quote = UInt8(ascii: "\"")
            guard hi - lo >= 2, bytes[lo] == quote, bytes[hi - 1] == quote,
                  !bytes[(lo + 1)..<(hi - 1)].contains(quote) else {
                throw CubeError("line \(lineNumber): TITLE needs one double-quoted string")
            }
        case "LUT_3D_SIZE":
            guard let token = nextToken(&rest), nextToken(&rest) == nil,
                  let n = Int(string(token)) else {
                throw CubeError("line \(lineNumber): LUT_3D_SIZE needs one whole number")
            }
            guard ColourCube.sizeRange.contains(n) else {
                throw CubeError("LUT_3D_SIZE \(n) is outside 2…256")
            }
            size = n
            values.reserveCapacity(n * n * n * 3)
        default:  // DOMAIN_MIN, DOMAIN_MAX
            guard let first = nextToken(&rest) else {
                throw CubeError("line \(lineNumber): expected 3 numbers, got 0")
            }
            let (a, b, c) = try threeNumbers(startingWith: first, rest: &rest)
            let wanted: Float = keyword == "DOMAIN_MIN" ? 0 : 1
            guard a == wanted, b == wanted, c == wanted else {
                throw CubeError("DOMAIN_MIN/DOMAIN_MAX other than 0 0 0 / 1 1 1 are not supported")
            }
        }
    }

    /// Exactly three finite numbers: `first` and the rest of the line.
    func threeNumbers(startingWith first: Range<Int>, rest: inout Range<Int>) throws(CubeError)
        -> (Float, Float, Float)
    {
        var tokens = (first, first, first)
        var count = 1
        while let token = nextToken(&rest) {
            count += 1
            if count == 2 { tokens.1 = token } else if count == 3 { tokens.2 = token }
        }
        guard count == 3 else {
            throw CubeError("line \(lineNumber): expected 3 numbers, got \(count)")
        }
        return (try finiteNumber(tokens.0), try finiteNumber(tokens.1), try finiteNumber(tokens.2))
    }

    func finiteNumber(_ token: Range<Int>) throws(CubeError) -> Float {
        guard let value = number(token) else {
            throw CubeError("line \(lineNumber): '\(string(token))' is not a number")
        }
        guard value.isFinite else {
            throw CubeError("non-finite value at line \(lineNumber)")
        }
        return value
    }
}
