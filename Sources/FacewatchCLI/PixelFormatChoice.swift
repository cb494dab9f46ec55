import ArgumentParser
import Capture

/// A pixel format named on the command line (`--format mjpg|yuyv|grey`).
enum PixelFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case mjpg, yuyv, grey

    var fourcc: FourCC { FourCC(formatName: rawValue)! }
}
