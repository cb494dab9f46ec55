import Foundation
import Imaging

/// One frame from a camera or a recording, in stream order.
public struct Frame: Sendable {
    /// What the frame holds.
    public enum Payload: Sendable {
        /// A complete JPEG (an MJPEG camera frame or a recorded one).
        case jpeg(Data)
        /// Luma straight from a YUYV or GREY camera.
        case gray(GrayImage)
    }

    /// 0-based frame number.
    public var index: Int
    /// Capture time, seconds since the stream's first frame.
    public var t: Double
    public var payload: Payload

    public init(index: Int, t: Double, payload: Payload) {
        self.index = index
        self.t = t
        self.payload = payload
    }
}
