import Foundation

/// What a device offers, for `facewatch devices`: its capabilities, and for capture devices
/// every pixel format with its frame sizes and the frame intervals at each size.
public struct DeviceReport: Sendable {
    /// One frame size (or range of sizes) and the intervals offered at it (at the largest size of a range).
    public struct Mode: Sendable, Equatable {
        public var size: FrameSizeRange
        public var intervals: [FrameIntervalRange]
    }

    /// One pixel format and its modes.
    public struct Format: Sendable, Equatable {
        public var description: FormatDescription
        public var modes: [Mode]
    }

    public var path: String
    public var capabilities: DeviceCapabilities
    public var formats: [Format]
    /// The size asked for when choosing the format automatically.
    public var asked: (width: Int, height: Int)
    /// What the automatic choice (`FormatNegotiation`) takes at that size; nil when no format is usable.
    public var automatic: FormatNegotiation.Candidate?

    /// Queries an open device; `width` and `height` are the size the automatic choice is explained for.
    public init(device: any VideoDevice, width: Int = 640, height: Int = 480) throws {
        path = device.path
        capabilities = try device.capabilities()
        asked = (width, height)
        guard capabilities.capabilities & DeviceCapabilities.videoCapture != 0 else {
            formats = []
            return
        }
        automatic = try? FormatNegotiation.candidates(device, settings: CameraSettings(device: path, width: width, height: height)).first
        formats = try device.formats().map { description in
            let modes = try device.frameSizes(description.fourcc).map { size -> Mode in
                let (width, height): (Int, Int)
                switch size {
                case .discrete(let w, let h): (width, height) = (w, h)
                case .stepwise(_, let maxWidth, _, _, let maxHeight, _): (width, height) = (maxWidth, maxHeight)
                }
                return Mode(size: size, intervals: try device.frameIntervals(description.fourcc, width: width, height: height))
            }
            return Format(description: description, modes: modes)
        }
    }

    /// The report as indented text lines.
    public var lines: [String] {
        var lines = ["\(path): \(capabilities.card) (driver \(capabilities.driver), \(capabilities.busInfo))",
                     "  capabilities: \(capabilities.names.joined(separator: ", "))"]
        guard capabilities.isStreamingCapture else {
            lines.append("  not a streaming video capture device")
            return lines
        }
        for format in formats {
            var flags: [String] = []
            if format.description.compressed { flags.append("compressed") }
            if format.description.emulated { flags.append("converted by libv4l2") }
            let suffix = flags.isEmpty ? "" : ", " + flags.joined(separator: ", ")
            lines.append("  \(format.description.fourcc) (\(format.description.description)\(suffix))")
            for mode in format.modes {
                let rates = mode.intervals.map(Self.rate).joined(separator: ", ")
                lines.append("    \(Self.size(mode.size)): \(rates.isEmpty ? "frame rates not listed" : rates)")
            }
        }
        let ranking = FormatNegotiation.preference.map(\.description).joined(separator: ", ")
        if let automatic {
            lines.append("  automatic choice for \(asked.width)x\(asked.height): \(automatic.format) at \(automatic.width)x\(automatic.height) "
                         + "(the format offering the nearest size, ties ranked \(ranking); --format or camera.format picks another)")
        } else {
            lines.append("  automatic choice: none (Facewatch reads \(ranking))")
        }
        return lines
    }

    private static func size(_ size: FrameSizeRange) -> String {
        switch size {
        case .discrete(let width, let height):
            return "\(width)x\(height)"
        case .stepwise(let minW, let maxW, let stepW, let minH, let maxH, let stepH):
            return "\(minW)x\(minH) to \(maxW)x\(maxH) in steps of \(stepW)x\(stepH)"
        }
    }

    private static func fps(_ interval: FrameInterval) -> String {
        let fps = interval.fps
        return fps == fps.rounded() ? "\(Int(fps))" : String(format: "%.2f", fps)
    }

    private static func rate(_ interval: FrameIntervalRange) -> String {
        switch interval {
        case .discrete(let interval):
            return "\(fps(interval)) fps"
        case .stepwise(let low, let high, _):
            return "\(fps(high))-\(fps(low)) fps"
        }
    }
}
