/// Bounded checks of a property list's structure before Foundation parses it.
///
/// Foundation (CoreFoundation's parsers, swift-corelibs-foundation 6.3) builds arrays and
/// dictionaries by recursion, one level per nesting level. Measured with hand-made binary plists
/// (scripts/make-hostile-corpus `bplist`): it parses 512 nested arrays and refuses 513 or more,
/// and refuses an array that contains itself; the XML parser likewise refuses 50 000 nested arrays
/// (Fixtures/hostile/metadata-dump-bomb.plist). So Foundation is bounded today, but by limits that
/// are its own, undocumented, and far above anything an AAE file needs (its top dictionary holds
/// only scalars and data). This scan enforces `AAELimits`' own bounds first, iteratively — object
/// count, offset table and every offset in bounds, nesting depth, no cycles — so the reader's
/// behaviour does not rest on Foundation's internals.
enum AAEPlistScan {
    /// The kind of property list the bytes claim to be.
    enum Format { case xml, binary }

    /// "bplist00": the binary format's magic, version 00 (the only one CoreFoundation writes).
    private static let binaryMagic: [UInt8] = Array("bplist00".utf8)

    /// Which format the bytes are in, or `.notAPropertyList` for anything else (the OpenStep text
    /// form, which Foundation would read from almost any text, is not a form AAE files take).
    static func format(of bytes: [UInt8]) throws(AAEError) -> Format {
        if bytes.starts(with: binaryMagic) { return .binary }
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { throw .notAPropertyList }
        return .xml
    }

    /// Counts the nesting of `<array>` and `<dict>` elements (self-closing ones excepted), and the
    /// objects: every start tag but `<plist>` and `<key>`. Text in comments counts too, which can
    /// only make the scan stricter than the parser.
    static func checkXML(_ bytes: [UInt8], limits: AAELimits) throws(AAEError) {
        var depth = 0
        var objects = 0
        var index = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            let closing = index + 1 < count && bytes[index + 1] == UInt8(ascii: "/")
            let nameStart = index + (closing ? 2 : 1)
            var nameEnd = nameStart
            while nameEnd < count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let name = bytes[nameStart..<nameEnd]
            index = nameEnd
            if !closing, !name.isEmpty, !name.elementsEqual("plist".utf8), !name.elementsEqual("key".utf8) {
                objects += 1
            }
            guard name.elementsEqual("dict".utf8) || name.elementsEqual("array".utf8) else { continue }
            if closing {
                depth -= 1
                continue
            }
            // Self-closing (`<array/>`) opens nothing.
            var end = nameEnd
            while end < count, bytes[end] != UInt8(ascii: ">") { end += 1 }
            if end > nameEnd, bytes[end - 1] == UInt8(ascii: "/") { continue }
            depth += 1
            guard depth <= limits.maxPlistDepth else { throw .plistNestingTooDeep(limit: limits.maxPlistDepth) }
        }
        guard objects <= limits.maxPlistObjects else {
            throw .tooManyPlistObjects(count: objects, limit: limits.maxPlistObjects)
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Checks the binary plist's trailer (object count, top object, offset table in bounds), every
    /// object offset, and walks the collections from the top object depth-first without recursion:
    /// nesting beyond `maxPlistDepth` or a collection that contains itself is refused. Each
    /// collection is walked once, so the walk costs at most one step per reference in the file.
    static func checkBinary(_ bytes: [UInt8], limits: AAELimits) throws(AAEError) {
        let trailerSize = 32
        guard bytes.count >= binaryMagic.count + 1 + trailerSize else { throw .malformedPropertyList("binary plist is truncated") }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        let objectCount = bigEndian(bytes, at: trailer + 8, size: 8)
        let topObject = bigEndian(bytes, at: trailer + 16, size: 8)
        let tableStart = bigEndian(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw .malformedPropertyList("binary plist trailer has invalid integer sizes")
        }
        guard objectCount <= UInt64(limits.maxPlistObjects) else {
            throw .tooManyPlistObjects(count: objectCount > UInt64(Int.max) ? Int.max : Int(objectCount),
                                       limit: limits.maxPlistObjects)
        }
        let objects = Int(objectCount)
        guard objects >= 1, topObject < objectCount else {
            throw .malformedPropertyList("binary plist trailer has an invalid object count or top object")
        }
        guard tableStart >= UInt64(binaryMagic.count), tableStart <= UInt64(trailer),
              Int(tableStart) + objects * offsetSize <= trailer else {
            throw .malformedPropertyList("binary plist offset table lies outside the file")
        }
        let table = Int(tableStart)
        func offset(of object: Int) throws(AAEError) -> Int {
            let value = bigEndian(bytes, at: table + object * offsetSize, size: offsetSize)
            guard value >= UInt64(binaryMagic.count), value < UInt64(table) else {
                throw .malformedPropertyList("binary plist object \(object) lies outside the object area")
            }
            return Int(value)
        }

        // The references of collection `object`, or nil for a scalar.
        func references(of object: Int) throws(AAEError) -> (start: Int, count: Int)? {
            let start = try offset(of: object)
            let marker = bytes[start]
            let kind = marker >> 4
            // 0xA array, 0xB ordered set, 0xC set, 0xD dictionary (keys then values).
            guard (0xA...0xD).contains(kind) else { return nil }
            var count = Int(marker & 0x0F)
            var cursor = start + 1
            if count == 0x0F {
                // The count follows as an integer object: marker 0x1n, then 2^n big-endian bytes.
                guard cursor < table, bytes[cursor] >> 4 == 0x1, bytes[cursor] & 0x0F <= 3 else {
                    throw .malformedPropertyList("binary plist object \(object) has an invalid count")
                }
                let size = 1 << Int(bytes[cursor] & 0x0F)
                guard cursor + 1 + size <= table else { throw .malformedPropertyList("binary plist object \(object) is truncated") }
                let value = bigEndian(bytes, at: cursor + 1, size: size)
                guard value <= UInt64(objects) * 2 else {
                    throw .malformedPropertyList("binary plist object \(object) claims \(value) entries")
                }
                count = Int(value)
                cursor += 1 + size
            }
            let refs = kind == 0xD ? count * 2 : count
            guard cursor + refs * refSize <= table else { throw .malformedPropertyList("binary plist object \(object) is truncated") }
            return (cursor, refs)
        }

        enum Visit: UInt8 { case unseen, open, done }
        var visit = [Visit](repeating: .unseen, count: objects)
        // The open collections, outermost first: the object and the index of its next reference.
        var path: [(object: Int, refs: (start: Int, count: Int), next: Int)] = []

        func enter(_ object: Int) throws(AAEError) {
            switch visit[object] {
            case .done: return
            case .open: throw .plistNestingTooDeep(limit: limits.maxPlistDepth)   // a cycle
            case .unseen: break
            }
            guard let refs = try references(of: object) else { visit[object] = .done; return }
            guard path.count < limits.maxPlistDepth else { throw .plistNestingTooDeep(limit: limits.maxPlistDepth) }
            visit[object] = .open
            path.append((object, refs, 0))
        }

        try enter(Int(topObject))
        while let top = path.last {
            if top.next == top.refs.count {
                visit[top.object] = .done
                path.removeLast()
                continue
            }
            path[path.count - 1].next += 1
            let child = bigEndian(bytes, at: top.refs.start + top.next * refSize, size: refSize)
            guard child < objectCount else {
                throw .malformedPropertyList("binary plist object \(top.object) refers to object \(child), past the last")
            }
            try enter(Int(child))
        }
    }

    private static func bigEndian(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<(start + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
