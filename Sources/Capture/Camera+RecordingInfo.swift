import Recordings

extension Camera {
    /// The `recording.json` metadata for recording this camera's frames as granted.
    public var recordingInfo: RecordingInfo {
        RecordingInfo(width: format.width, height: format.height, fps: format.fps ?? settings.fps,
                      pixelFormat: format.pixelFormat.description,
                      source: "\(capabilities.card) (\(settings.device))")
    }
}
