import AdjustKit
import Foundation
import XCTest

/// `adjust batch --shard K/N`: three processes over one tree into one output folder.
final class BatchShardTests: XCTestCase {
    private var scratch: URL!
    private var photos: String { scratch.appendingPathComponent("photos").path }
    private var out: String { scratch.appendingPathComponent("out").path }
    private let names = ["Landscape_1.jpg", "Landscape_3.jpg", "Landscape_6.jpg", "Landscape_8.jpg",
                         "sub/Landscape_2.jpg", "sub/Landscape_5.jpg", "sub/deeper/Landscape_7.jpg"]

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("adjust-shard")
        let fm = FileManager.default
        try fm.createDirectory(atPath: photos + "/sub/deeper", withIntermediateDirectories: true)
        for name in names {
            try fm.copyItem(atPath: TestFixtures.image((name as NSString).lastPathComponent), toPath: photos + "/" + name)
        }
    }

    override func tearDownWithError() throws { ScratchFolder.remove(scratch) }

    /// FNV-1a 64 written out from its definition, independently of the CLI's.
    private func expectedShard(_ relative: String, of count: UInt64) -> Int {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in relative.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return Int(hash % count) + 1
    }

    private func inputs(_ run: BinaryRun) throws -> [String] {
        try run.stdout.split(separator: "\n").compactMap {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["input"] as? String
        }
    }

    func testThreeShardsCoverEveryInputOnceAndAgreeWithTheStableHash() throws {
        // A temporary file a killed run left for one of the outputs.
        try FileManager.default.createDirectory(atPath: out + "/sub", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: out + "/sub/.adjust-tmp-Landscape_2.jpg.Ab12Cd", contents: Data([1]))

        var seen: [String: Int] = [:]
        for shard in 1...3 {
            let run = try BinaryRun.run(BatchTests.binary, ["batch", photos, "--out", out, "--scale", "1/8",
                                                            "--json", "--shard", "\(shard)/3"], in: scratch)
            XCTAssertEqual(run.status, 0, run.stderr)
            for input in try inputs(run) {
                XCTAssertNil(seen[input], "\(input) in two shards")
                seen[input] = shard
            }
        }
        XCTAssertEqual(Set(seen.keys), Set(names.map { photos + "/" + $0 }))
        for name in names {
            XCTAssertEqual(seen[photos + "/" + name], expectedShard(name, of: 3), name)
            let decoded = try JPEGDecoder().decode(TestFixtures.bytes(out + "/" + name), scale: .full)
            XCTAssertGreaterThan(decoded.size.width, 0)
        }
        XCTAssertGreaterThan(Set(seen.values).count, 1, "the seven inputs spread over more than one shard")
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.contains(".adjust-tmp-") }
        XCTAssertEqual(leftovers, [], "the stale temporary file is removed by its output's shard")
    }

    func testABadShardIsAUsageError() throws {
        for bad in ["0/3", "4/3", "1/0", "1", "a/b"] {
            let run = try BinaryRun.run(BatchTests.binary, ["batch", photos, "--out", out, "--shard", bad], in: scratch)
            XCTAssertEqual(run.status, 64, bad)
        }
    }
}
