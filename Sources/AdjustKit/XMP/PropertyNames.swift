/// The aas property names each filter owns (xmp-format.md §3). A filter exists iff all of its
/// required properties are present. Shared by the reader and the writer.
enum PropertyNames {
    static let affine = ["AffineA", "AffineB", "AffineC", "AffineD", "AffineX", "AffineY"]
    static let crop = ["CropX", "CropY", "CropW", "CropH"]
    static let vibrance = ["Vibrance"]
    static let highlightShadow = ["Shadows", "Highlights"]
    static let faceBalance = ["FaceBalanceOrigI", "FaceBalanceOrigQ", "FaceBalanceStrength", "FaceBalanceWarmth"]
    static let toneCurve = (0..<5).flatMap { ["Curve\($0)x", "Curve\($0)y"] }
    static let redEye = ["RedEyeW", "RedEyeH", "RedEyeISV", "RedEyeOrt", "RedEyeSNR"]
    static let redEyeModel = "RedEyeModel"
    static let redEyeCorrections = "RedEyeCorrections"
    static let filters = "Filters"

    /// Every aas name this project understands; any other aas property is reported, not dropped silently.
    static let known: Set<String> = Set(affine + crop + vibrance + highlightShadow + faceBalance
        + toneCurve + redEye + [redEyeModel, redEyeCorrections, filters])

    /// The Camera Raw mirror properties read for the crop fallback (xmp-format.md §4).
    enum CameraRaw {
        static let hasCrop = "HasCrop", alreadyApplied = "AlreadyApplied"
        static let left = "CropLeft", top = "CropTop", right = "CropRight", bottom = "CropBottom"
        static let angle = "CropAngle"
    }
}
