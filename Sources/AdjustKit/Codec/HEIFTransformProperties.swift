/// The transformative item properties of one HEIF item — `irot` (rotation), `imir` (mirror) and
/// whether a `clap` (clean aperture) is there — read from the file's boxes, and the EXIF
/// orientation 1–8 they compose into.
///
/// Hand-written because libheif 1.15 has no API for them: it applies `irot`/`imir` when it
/// decodes (or ignores them all with `ignore_transformations`) but never says which there were
/// (`heif_image_handle_get_width` is the transformed size, `get_ispe_width` the stored one; the
/// 1.15 headers have no property accessor at all).
/// The parse walks only `meta` → `iprp` → `ipco`/`ipma`; every read is bounds-checked against the
/// box it is in, and anything malformed yields "no transformation" rather than a trap (libheif has
/// already accepted the file by the time this runs; the fuzz harness FuzzHEIFHeader feeds it
/// arbitrary bytes too).
package struct HEIFTransformProperties: Equatable, Sendable {
    /// One transformative property, in the order the item's `ipma` entry lists them (HEIF
    /// applies them in that order).
    package enum Step: Equatable, Sendable {
        /// `irot`: this many anti-clockwise quarter turns (0…3).
        case rotateAnticlockwise(quarterTurns: Int)
        /// `imir` with its bit 1: left and right exchanged.
        case mirrorLeftRight
        /// `imir` with its bit 0: top and bottom exchanged.
        case mirrorTopBottom
    }

    /// `irot`/`imir`, in application order.
    package var steps: [Step] = []
    /// The item has a `clap` (clean aperture) property; it is not applied (the stored frame is
    /// the whole decoded image).
    package var hasCleanAperture = false

    package init(steps: [Step] = [], hasCleanAperture: Bool = false) {
        (self.steps, self.hasCleanAperture) = (steps, hasCleanAperture)
    }

    // MARK: composition

    /// The EXIF orientation (1–8) that shows the stored image as these steps do.
    ///
    /// Each step and each EXIF value is a 2×2 integer matrix M with displayed = M · stored, on
    /// pixel coordinates about the image centre (x right, y down). An anti-clockwise quarter turn
    /// is (x, y) → (y, −x); left↔right is (x, y) → (−x, y); top↔bottom is (x, y) → (x, −y). Steps
    /// listed first apply first: M = M_last · … · M_first. The product is one of the eight
    /// matrices below, whose EXIF value it is (so irot 1 = 8, irot 2 = 3, irot 3 = 6; imir mode 1
    /// (left↔right) = 2, imir mode 0 (top↔bottom) = 4; irot 3 then left↔right = 5, …).
    package var exifOrientation: Int {
        var m = Matrix.identity
        for step in steps { m = step.matrix * m }
        return Matrix.exif.firstIndex(of: m).map { $0 + 1 } ?? 1
    }

    struct Matrix: Equatable {
        var a, b, c, d: Int   // [[a, b], [c, d]]
        static let identity = Matrix(a: 1, b: 0, c: 0, d: 1)
        static func * (l: Matrix, r: Matrix) -> Matrix {
            Matrix(a: l.a * r.a + l.b * r.c, b: l.a * r.b + l.b * r.d,
                   c: l.c * r.a + l.d * r.c, d: l.c * r.b + l.d * r.d)
        }
        /// EXIF 1…8, displayed = M · stored (Orientation's cases, same order).
        static let exif: [Matrix] = [
            .identity,                        // 1
            Matrix(a: -1, b: 0, c: 0, d: 1),  // 2 mirror left↔right
            Matrix(a: -1, b: 0, c: 0, d: -1), // 3 rotate 180°
            Matrix(a: 1, b: 0, c: 0, d: -1),  // 4 mirror top↔bottom
            Matrix(a: 0, b: 1, c: 1, d: 0),   // 5 transpose
            Matrix(a: 0, b: -1, c: 1, d: 0),  // 6 rotate 90° clockwise: (x, y) → (−y, x)
            Matrix(a: 0, b: -1, c: -1, d: 0), // 7 transverse
            Matrix(a: 0, b: 1, c: -1, d: 0),  // 8 rotate 90° anti-clockwise: (x, y) → (y, −x)
        ]
    }

    // MARK: parsing

    /// The transformative properties of item `itemID` in the HEIF file `bytes`; empty when the
    /// file has none, or when its `meta`/`iprp` boxes cannot be walked.
    package static func read(in bytes: [UInt8], itemID: UInt32) -> HEIFTransformProperties {
        bytes.withUnsafeBufferPointer { buffer in
            let file = BoxReader(buffer, buffer.startIndex..<buffer.endIndex)
            guard let meta = file.child("meta"), meta.payload.count >= 4 else { return HEIFTransformProperties() }
            // meta is a FullBox: 4 bytes of version and flags before its children.
            let metaChildren = BoxReader(buffer, (meta.payload.lowerBound + 4)..<meta.payload.upperBound)
            guard let iprp = metaChildren.child("iprp") else { return HEIFTransformProperties() }
            let iprpChildren = BoxReader(buffer, iprp.payload)
            guard let ipco = iprpChildren.child("ipco") else { return HEIFTransformProperties() }
            let properties = BoxReader(buffer, ipco.payload).boxes()
            var result = HEIFTransformProperties()
            // Every ipma box may hold entries (the spec allows several, each item in at most one).
            for ipma in iprpChildren.boxes() where ipma.type == "ipma" {
                guard let indices = associations(of: itemID, in: buffer, ipma: ipma.payload) else { continue }
                for index in indices where index >= 1 && index <= properties.count {
                    let property = properties[index - 1]
                    let first = property.payload.isEmpty ? nil : buffer[property.payload.lowerBound]
                    switch property.type {
                    case "irot": if let first { result.steps.append(.rotateAnticlockwise(quarterTurns: Int(first & 3))) }
                    // The 2017 text ("axis 0: a vertical axis") was read both ways; the 2nd edition
                    // names the field `mode`: 0 exchanges top and bottom, 1 left and right. libheif
                    // (whose own irot/imir decode the tests compare against) and libavif read it so.
                    case "imir": if let first { result.steps.append(first & 1 == 0 ? .mirrorTopBottom : .mirrorLeftRight) }
                    case "clap": result.hasCleanAperture = true
                    default: break
                    }
                }
                break
            }
            return result
        }
    }

    /// The 1-based `ipco` indices associated with `itemID` by one `ipma` payload, or nil when it
    /// has no entry for the item (or is malformed).
    private static func associations(of itemID: UInt32, in buffer: UnsafeBufferPointer<UInt8>,
                                     ipma: Range<Int>) -> [Int]? {
        var cursor = Cursor(buffer: buffer, position: ipma.lowerBound, end: ipma.upperBound)
        guard let version = cursor.u8(), let flags = cursor.u24(), let entryCount = cursor.u32() else { return nil }
        let wideIDs = version >= 1, wideIndices = flags & 1 == 1
        for _ in 0..<min(entryCount, UInt32(ipma.count)) {
            guard let id = wideIDs ? cursor.u32() : cursor.u16().map(UInt32.init),
                  let count = cursor.u8() else { return nil }
            var indices: [Int] = []
            for _ in 0..<count {
                if wideIndices {
                    guard let value = cursor.u16() else { return nil }
                    indices.append(Int(value & 0x7FFF))     // top bit: essential
                } else {
                    guard let value = cursor.u8() else { return nil }
                    indices.append(Int(value & 0x7F))
                }
            }
            if id == itemID { return indices }
        }
        return nil
    }

    /// Big-endian reads that stop at `end`.
    private struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        var position: Int
        let end: Int

        mutating func bytes(_ n: Int) -> UInt32? {
            guard n <= end - position else { return nil }
            var value: UInt32 = 0
            for i in 0..<n { value = value << 8 | UInt32(buffer[position + i]) }
            position += n
            return value
        }
        mutating func u8() -> UInt8? { bytes(1).map { UInt8($0) } }
        mutating func u16() -> UInt16? { bytes(2).map { UInt16($0) } }
        mutating func u24() -> UInt32? { bytes(3) }
        mutating func u32() -> UInt32? { bytes(4) }
    }

    /// The boxes laid end to end in one range of the file (ISO BMFF: 32-bit size and type, a
    /// 64-bit size when the size is 1, "to the end" when it is 0).
    private struct BoxReader {
        struct Box { var type: String; var payload: Range<Int> }
        let buffer: UnsafeBufferPointer<UInt8>
        let range: Range<Int>

        init(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) { (self.buffer, self.range) = (buffer, range) }

        func boxes() -> [Box] {
            var result: [Box] = []
            var cursor = Cursor(buffer: buffer, position: range.lowerBound, end: range.upperBound)
            // A box is at least 8 bytes, so the count is bounded by the range's length.
            while cursor.position < range.upperBound {
                let start = cursor.position
                guard let size32 = cursor.u32(), let type = cursor.u32() else { break }
                var size = Int(size32)
                if size32 == 1 {
                    guard let high = cursor.u32(), let low = cursor.u32(), high == 0 else { break }
                    size = Int(low)
                } else if size32 == 0 {
                    size = range.upperBound - start
                }
                let headerLength = cursor.position - start
                guard size >= headerLength, size <= range.upperBound - start else { break }
                let name = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) },
                                  as: UTF8.self)
                result.append(Box(type: name, payload: cursor.position..<(start + size)))
                cursor.position = start + size
            }
            return result
        }

        func child(_ type: String) -> Box? { boxes().first { $0.type == type } }
    }
}

extension HEIFTransformProperties.Step {
    var matrix: HEIFTransformProperties.Matrix {
        switch self {
        case .rotateAnticlockwise(let turns):
            var m = HEIFTransformProperties.Matrix.identity
            for _ in 0..<(turns & 3) { m = HEIFTransformProperties.Matrix(a: 0, b: 1, c: -1, d: 0) * m }
            return m
        case .mirrorLeftRight: return HEIFTransformProperties.Matrix(a: -1, b: 0, c: 0, d: 1)
        case .mirrorTopBottom: return HEIFTransformProperties.Matrix(a: 1, b: 0, c: 0, d: -1)
        }
    }
}
