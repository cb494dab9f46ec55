import CV4L2
import Foundation

/// A V4L2 video output node, such as a v4l2loopback device, fed whole frames with write(2): what
/// is written comes out of the node's capture side as camera frames for any reader.
public final class V4L2Output {
    public let path: String
    /// What the device granted for the asked format (v4l2loopback may round the size).
    public let layout: PixelLayout
    private var fd: Int32

    /// Opens `path` and sets its output format (VIDIOC_S_FMT). `frameBytes` is the largest frame
    /// that will be written (for JPEG formats; uncompressed ones follow from the size).
    public init(path: String, format: FourCC, width: Int, height: Int, frameBytes: Int) throws {
        self.path = path
        var descriptor: Int32 = -1
        let code = fw_v4l2_output_open(path, &descriptor)
        guard code == 0 else { throw VideoDeviceError(device: path, call: "open", code: code) }
        fd = descriptor
        var request = v4l2_format()
        request.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        request.fmt.pix.pixelformat = format.rawValue
        request.fmt.pix.width = UInt32(width)
        request.fmt.pix.height = UInt32(height)
        request.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        request.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB.rawValue
        let bytesPerPixel = format == .yuyv ? 2 : 1
        request.fmt.pix.bytesperline = format.isJPEG ? 0 : UInt32(width * bytesPerPixel)
        request.fmt.pix.sizeimage = UInt32(format.isJPEG ? frameBytes : width * height * bytesPerPixel)
        let set = fw_v4l2_output_s_fmt(fd, &request)
        guard set == 0 else {
            _ = fw_v4l2_output_close(fd)
            throw VideoDeviceError(device: path, call: "VIDIOC_S_FMT", code: set)
        }
        let pix = request.fmt.pix
        layout = PixelLayout(fourcc: FourCC(rawValue: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                             bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage))
    }

    deinit {
        close()
    }

    /// Writes one frame.
    public func write(_ frame: UnsafeRawBufferPointer) throws {
        let code = fw_v4l2_output_write(fd, frame.baseAddress, frame.count)
        guard code == 0 else { throw VideoDeviceError(device: path, call: "write", code: fd < 0 ? EBADF : code) }
    }

    public func close() {
        guard fd >= 0 else { return }
        _ = fw_v4l2_output_close(fd)
        fd = -1
    }
}
