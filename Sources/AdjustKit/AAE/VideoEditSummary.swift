import Foundation

/// What a video's edit asks for, in words, for the record of a video copied without it (adjust
/// replays no video edit; docs/spec/photos-library.md §3): `com.apple.video` holds deflated JSON
/// with a `Trim` (`startTime`/`endTime` as CMTime `value`/`timescale`), `com.apple.video.slomo` a
/// binary property list with `slowMotion.regions[].timeRange` and a `rate`. Step identifiers are
/// read from the edit, never listed here (`FilterRegistry` holds the list of video steps).
///
/// Read under the same limits as a photo's edit (`AAELimits`), through the same scans; anything
/// unexpected gives the format's name alone, never a failure: the video is copied either way.
package enum VideoEditSummary {
    /// One line per step the edit at `path` holds ("Trim 0.512 s to 2.766 s", "slow motion 0.398 s
    /// to 2.255 s at 1/8"), or the edit's format identifier when its steps cannot be read.
    package static func describe(editAt path: String, limits: AAELimits = .default) -> [String] {
        guard let bytes = FileManager.default.contents(atPath: path).map([UInt8].init), bytes.count <= limits.maxFileBytes,
              scanned(bytes, limits: limits),
              let root = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: Any],
              let identifier = root["adjustmentFormatIdentifier"] as? String
        else { return ["video edit"] }
        guard let data = root["adjustmentData"] as? Data, data.count <= limits.maxCompressedBytes else { return [identifier] }
        switch identifier {
        case "com.apple.video":
            guard let json = try? AAEInflate.inflate([UInt8](data), cap: limits.maxInflatedBytes),
                  (try? AAEJSONScan.check(json, limits: limits)) != nil,
                  let top = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
                  let adjustments = top["adjustments"] as? [[String: Any]]
            else { return [identifier] }
            let steps = adjustments.map { adjustment -> String in
                let name = adjustment["identifier"] as? String ?? "adjustment"
                let settings = adjustment["settings"] as? [String: Any] ?? [:]
                // A trim is a step with a start and an end time (named as the edit names it).
                guard let start = seconds(settings["startTime"]), let end = seconds(settings["endTime"]) else { return name }
                return "\(name) \(format(start)) s to \(format(end)) s"
            }
            return steps.isEmpty ? [identifier] : steps
        case "com.apple.video.slomo":
            guard scanned([UInt8](data), limits: limits),
                  let inner = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
                  let slow = inner["slowMotion"] as? [String: Any], let regions = slow["regions"] as? [[String: Any]]
            else { return [identifier] }
            let rate = (slow["rate"] as? NSNumber)?.doubleValue
            let lines = regions.compactMap { region -> String? in
                guard let range = region["timeRange"] as? [String: Any], let start = seconds(range["start"]),
                      let duration = seconds(range["duration"]) else { return nil }
                let speed = rate.map { $0 > 0 && $0 < 1 ? " at 1/\(Int((1 / $0).rounded()))" : " at \($0)×" } ?? ""
                return "slow motion \(format(start)) s to \(format(start + duration)) s" + speed
            }
            return lines.isEmpty ? [identifier] : lines
        default:
            return [identifier]
        }
    }

    /// Whether `bytes` pass the property-list scans that bound nesting and size before Foundation
    /// parses them (`AAEPlistScan`, as for a photo's edit).
    private static func scanned(_ bytes: [UInt8], limits: AAELimits) -> Bool {
        switch try? AAEPlistScan.format(of: bytes) {
        case .xml?: return (try? AAEPlistScan.checkXML(bytes, limits: limits)) != nil
        case .binary?: return (try? AAEPlistScan.checkBinary(bytes, limits: limits)) != nil
        case nil: return false
        }
    }

    /// A CMTime dictionary's seconds (`value` / `timescale`).
    private static func seconds(_ time: Any?) -> Double? {
        guard let time = time as? [String: Any], let value = (time["value"] as? NSNumber)?.doubleValue,
              let scale = (time["timescale"] as? NSNumber)?.doubleValue, scale > 0 else { return nil }
        return value / scale
    }

    private static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}
