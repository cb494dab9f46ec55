/// Chooses a camera's pixel format, size and frame rate, sets them, and reports what was granted.
///
/// Automatically (no `CameraSettings.format`), formats are ranked MJPG, JPEG, YUYV, GREY. A
/// format that offers the asked size exactly beats one that does not (a camera may send MJPG
/// only at large sizes and YUYV at 640×480); among equally close sizes the higher-ranked format
/// wins. With a format asked for, only that one is tried. The driver has the last word: S_FMT
/// may adjust the size, and S_PARM the rate.
public enum FormatNegotiation {
    /// The automatic ranking.
    public static let preference: [FourCC] = [.mjpeg, .jpeg, .yuyv, .grey]

    /// A format at the offered size nearest the asked one.
    public struct Candidate: Sendable, Equatable {
        public var format: FourCC
        public var width: Int
        public var height: Int
        /// |width - asked width| + |height - asked height|.
        public var distance: Int
    }

    /// The formats to try, best first: the asked format alone, or the usable ones ranked.
    public static func candidates(_ device: any VideoDevice, settings: CameraSettings) throws -> [Candidate] {
        let offered = try device.formats().map(\.fourcc)
        let usable: [FourCC]
        if let wanted = settings.format {
            guard offered.contains(wanted) else {
                throw CameraError.formatNotOffered(device: settings.device, format: wanted.description,
                                                   offered: offered.map(\.description))
            }
            usable = [wanted]
        } else {
            usable = preference.filter(offered.contains)
        }
        guard !usable.isEmpty else {
            throw CameraError.noUsableFormat(device: settings.device, offered: offered.map(\.description))
        }
        var candidates: [Candidate] = []
        for format in usable {
            let sizes = try device.frameSizes(format).map { $0.nearest(width: settings.width, height: settings.height) }
            // A driver that does not enumerate sizes is asked for the size itself.
            let best = sizes.min { distance($0, settings) < distance($1, settings) } ?? (settings.width, settings.height)
            candidates.append(Candidate(format: format, width: best.width, height: best.height, distance: distance(best, settings)))
        }
        candidates.sort { $0.distance < $1.distance }  // stable: keeps the format ranking among ties
        return candidates
    }

    static func negotiate(_ device: any VideoDevice, settings: CameraSettings) throws -> CaptureFormat {
        let candidates = try candidates(device, settings: settings)
        for candidate in candidates {
            let layout = try device.setFormat(candidate.format, width: candidate.width, height: candidate.height)
            guard candidates.contains(where: { $0.format == layout.fourcc }), layout.width > 0, layout.height > 0 else { continue }
            let target = FrameInterval(fps: settings.fps)
            let intervals = try device.frameIntervals(layout.fourcc, width: layout.width, height: layout.height)
                .map { $0.nearest(to: target) }
            let chosen = intervals.min { abs($0.seconds - target.seconds) < abs($1.seconds - target.seconds) } ?? target
            let granted = try device.setFrameInterval(chosen)
            return CaptureFormat(layout: layout, interval: granted)
        }
        throw CameraError.unusable(device: settings.device,
                                   problem: "the driver refused every usable format (\(candidates.map(\.format.description).joined(separator: ", ")))")
    }

    private static func distance(_ size: (width: Int, height: Int), _ settings: CameraSettings) -> Int {
        abs(size.width - settings.width) + abs(size.height - settings.height)
    }
}
