/// Chooses a camera's pixel format, size and frame rate, sets them, and reports what was granted.
///
/// Formats are ranked MJPG, JPEG, YUYV, GREY. A format that offers the asked size exactly beats
/// one that does not (a camera may send MJPG only at large sizes and YUYV at 640×480); among
/// equally close sizes the higher-ranked format wins. The driver has the last word: S_FMT may
/// adjust the size, and S_PARM the rate.
enum FormatNegotiation {
    static let preference: [FourCC] = [.mjpeg, .jpeg, .yuyv, .grey]

    static func negotiate(_ device: any VideoDevice, settings: CameraSettings) throws -> CaptureFormat {
        let offered = try device.formats()
        let usable = preference.filter { format in offered.contains { $0.fourcc == format } }
        guard !usable.isEmpty else {
            throw CameraError.noUsableFormat(device: settings.device, offered: offered.map(\.fourcc.description))
        }
        var candidates: [(format: FourCC, width: Int, height: Int, distance: Int)] = []
        for format in usable {
            let sizes = try device.frameSizes(format).map { $0.nearest(width: settings.width, height: settings.height) }
            // A driver that does not enumerate sizes is asked for the size itself.
            let best = sizes.min { distance($0, settings) < distance($1, settings) } ?? (settings.width, settings.height)
            candidates.append((format, best.width, best.height, distance(best, settings)))
        }
        candidates.sort { $0.distance < $1.distance }  // stable: keeps the format ranking among ties

        for candidate in candidates {
            let layout = try device.setFormat(candidate.format, width: candidate.width, height: candidate.height)
            guard usable.contains(layout.fourcc), layout.width > 0, layout.height > 0 else { continue }
            let target = FrameInterval(fps: settings.fps)
            let intervals = try device.frameIntervals(layout.fourcc, width: layout.width, height: layout.height)
                .map { $0.nearest(to: target) }
            let chosen = intervals.min { abs($0.seconds - target.seconds) < abs($1.seconds - target.seconds) } ?? target
            let granted = try device.setFrameInterval(chosen)
            return CaptureFormat(layout: layout, interval: granted)
        }
        throw CameraError.unusable(device: settings.device,
                                   problem: "the driver refused every usable format (\(usable.map(\.description).joined(separator: ", ")))")
    }

    private static func distance(_ size: (width: Int, height: Int), _ settings: CameraSettings) -> Int {
        abs(size.width - settings.width) + abs(size.height - settings.height)
    }
}
