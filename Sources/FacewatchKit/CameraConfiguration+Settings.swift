import Capture
import Config

extension CameraConfiguration {
    /// The capture settings these stand for (`format` `auto`, or a name that is not a pixel
    /// format, lets the camera's formats be ranked).
    public var settings: CameraSettings {
        CameraSettings(device: device, width: width, height: height, fps: fps, buffers: buffers, pollTimeout: pollTimeout,
                       format: FourCC(formatName: format))
    }
}
