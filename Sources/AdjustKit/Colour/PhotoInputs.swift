/// What a render reads from the photo itself besides its pixels: inputs of that render, found in
/// the original's file, as opposed to `ColourOptions`, which are the user's choices for every
/// photo. (An edit's own data, such as SmartTone's light map, travels in its step's values.)
struct PhotoInputs: Sendable {
    /// The photo's depth or disparity image, for a portrait's `DepthEffect`: read by the renderer
    /// from a HEIC that has one (nil otherwise: the effect is then left out, with a warning).
    var depthMap: DepthMap?
}
