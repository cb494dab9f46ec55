import Foundation
import Pipeline

/// Draws an event stream (JSON lines with `frame` lines) as an SVG: EAR per eye, MAR and the
/// smile score of one face over time, each with its threshold, and every blink, wink, eye
/// closure, smile and open mouth marked, so a person can see why a check passed or failed.
public struct EventPlot {
    private struct Sample {
        var t, earLeft, earRight, mar, smile: Double
        var earCloseLeft, earCloseRight, smileOn, marOn: Double?
    }

    private struct Span {
        var type: String
        var start, end: Double
    }

    private var samples: [Sample] = []
    private var spans: [Span] = []
    private var marks: [(t: Double, label: String)] = []
    /// The face plotted (the first seen when nil).
    public private(set) var face: Int?
    /// Lines skipped as unreadable: not a JSON event object, or a time that is not finite or
    /// beyond `maximumTime`.
    public private(set) var skippedLines = 0

    /// Times are seconds since the stream started; anything beyond this (about 31 years) is corrupt.
    public static let maximumTime = 1e9

    /// Reads JSON lines; lines that are not JSON event objects are skipped (and counted), lines of
    /// other faces too.
    public init(jsonLines text: String, face: Int? = nil) {
        self.face = face
        var open: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let type = object["type"] as? String, let t = object["t"] as? Double ?? (object["t"] as? Int).map(Double.init),
                  abs(t) <= Self.maximumTime
            else {
                skippedLines += 1
                continue
            }
            if let id = object["face"] as? Int {
                if self.face == nil { self.face = id }
                guard id == self.face else { continue }
            }
            func number(_ key: String, in dictionary: [String: Any] = object) -> Double? {
                let value = (dictionary[key] as? Double) ?? (dictionary[key] as? Int).map(Double.init)
                return value.flatMap { abs($0) <= Self.maximumTime ? $0 : nil }
            }
            switch type {
            case "frame":
                guard let faces = object["faces"] as? [[String: Any]] else { continue }
                if self.face == nil { self.face = faces.first?["face"] as? Int }
                guard let f = faces.first(where: { ($0["face"] as? Int) == self.face }),
                      let earLeft = number("ear_left", in: f), let earRight = number("ear_right", in: f),
                      let mar = number("mar", in: f), let smile = number("smile", in: f) else { continue }
                let th = f["thresholds"] as? [String: Any] ?? [:]
                samples.append(Sample(t: t, earLeft: earLeft, earRight: earRight, mar: mar, smile: smile,
                                      earCloseLeft: number("ear_close_left", in: th), earCloseRight: number("ear_close_right", in: th),
                                      smileOn: number("smile", in: th), marOn: number("mar", in: th)))
            case "blink", "wink":
                if let start = number("start"), let ms = number("duration_ms") {
                    spans.append(Span(type: type, start: start, end: start + ms / 1000))
                    // Only known words reach the SVG's text: the file may hold anything.
                    let eye = (object["eye"] as? String).flatMap { ["left", "right"].contains($0) ? " \($0)" : nil } ?? ""
                    marks.append((start, type == "wink" ? "wink\(eye)" : "blink"))
                }
            case "eyes_closed", "smile", "mouth_open":
                let state = object["state"] as? String
                if state == "start" {
                    open[type] = type == "eyes_closed" ? (number("start") ?? t) : t
                } else if state == "end", let start = open.removeValue(forKey: type) {
                    spans.append(Span(type: type, start: start, end: t))
                }
            case "face_found", "face_lost":
                marks.append((t, type == "face_found" ? "face found" : "face lost"))
            default:
                break
            }
        }
        let end = samples.last?.t ?? 0
        for (type, start) in open { spans.append(Span(type: type, start: start, end: end)) }
    }

    /// Frames with measures.
    public var frameCount: Int { samples.count }
    /// Marked intervals per type.
    public func count(of type: String) -> Int { spans.filter { $0.type == type }.count }

    /// The SVG document.
    public func svg(width: Double = 1200) -> String {
        let panelHeight = 200.0, gap = 40.0, left = 60.0, right = 20.0, top = 30.0
        let times = samples.map(\.t)
        let t0 = times.min() ?? 0, t1 = max(times.max() ?? 1, t0 + 1e-3)
        // At most about 60 labelled seconds, whatever the span.
        let tick = max(1, ((t1 - t0) / 60).rounded(.up))
        let plotWidth = width - left - right
        func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * plotWidth }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(top + 3 * (panelHeight + gap)))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="18" font-size="14">Facewatch: face \(face.map(String.init) ?? "-"), \(samples.count) frames, \(String(format: "%.2f", t0))–\(String(format: "%.2f", t1)) s</text>

            """
        let panels: [(title: String, range: ClosedRange<Double>, series: [(String, String, (Sample) -> Double?)], spans: [String: String])] = [
            ("EAR (eye aspect ratio)", 0...0.45, [("left eye", "#1f77b4", { $0.earLeft }), ("right eye", "#ff7f0e", { $0.earRight }),
                                                   ("left close threshold", "#1f77b4", { $0.earCloseLeft }),
                                                   ("right close threshold", "#ff7f0e", { $0.earCloseRight })],
             ["blink": "#2ca02c", "wink": "#bcbd22", "eyes_closed": "#d62728"]),
            ("MAR (inner lips)", 0...1, [("MAR", "#9467bd", { $0.mar }), ("open threshold", "#9467bd", { $0.marOn })],
             ["mouth_open": "#9467bd"]),
            ("smile score", -0.5...1.5, [("smile", "#17becf", { $0.smile }), ("smile threshold", "#17becf", { $0.smileOn })],
             ["smile": "#17becf"]),
        ]
        for (n, panel) in panels.enumerated() {
            let y0 = top + Double(n) * (panelHeight + gap) + 10
            func y(_ v: Double) -> Double {
                let clamped = min(max(v, panel.range.lowerBound), panel.range.upperBound)
                return y0 + panelHeight - (clamped - panel.range.lowerBound) / (panel.range.upperBound - panel.range.lowerBound) * panelHeight
            }
            svg += "<text x=\"\(left)\" y=\"\(f(y0 - 4))\" font-weight=\"bold\">\(panel.title)</text>\n"
            for span in spans where panel.spans[span.type] != nil {
                svg += "<rect class=\"\(span.type)\" x=\"\(f(x(span.start)))\" y=\"\(f(y0))\" width=\"\(f(max(1, x(span.end) - x(span.start))))\" height=\"\(f(panelHeight))\" fill=\"\(panel.spans[span.type]!)\" fill-opacity=\"0.25\"><title>\(span.type) \(f(span.start))–\(f(span.end)) s</title></rect>\n"
            }
            svg += "<rect x=\"\(left)\" y=\"\(f(y0))\" width=\"\(f(plotWidth))\" height=\"\(f(panelHeight))\" fill=\"none\" stroke=\"#888\"/>\n"
            for tick in stride(from: panel.range.lowerBound, through: panel.range.upperBound + 1e-9, by: (panel.range.upperBound - panel.range.lowerBound) / 4) {
                svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(String(format: "%.2f", tick))</text>\n"
            }
            for second in stride(from: (t0 / tick).rounded(.up) * tick, through: t1, by: tick) {
                svg += "<line x1=\"\(f(x(second)))\" x2=\"\(f(x(second)))\" y1=\"\(f(y0))\" y2=\"\(f(y0 + panelHeight))\" stroke=\"#eee\"/>"
                svg += "<text x=\"\(f(x(second)))\" y=\"\(f(y0 + panelHeight + 14))\" text-anchor=\"middle\">\(Int(second)) s</text>\n"
            }
            for (k, series) in panel.series.enumerated() {
                let points = samples.compactMap { s in series.2(s).map { "\(f(x(s.t))),\(f(y($0)))" } }
                guard !points.isEmpty else { continue }
                let dashed = series.0.contains("threshold") ? " stroke-dasharray=\"5,4\"" : ""
                svg += "<polyline class=\"series\" points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(series.1)\" stroke-width=\"1.5\"\(dashed)/>\n"
                svg += "<text x=\"\(f(left + 10 + Double(k) * 150))\" y=\"\(f(y0 + 14))\" fill=\"\(series.1)\">\(series.0)</text>\n"
            }
            if n == 0 {
                for mark in marks {
                    svg += "<text x=\"\(f(x(mark.t)))\" y=\"\(f(y0 + panelHeight - 4))\" font-size=\"10\" transform=\"rotate(-90 \(f(x(mark.t))) \(f(y0 + panelHeight - 4)))\">\(mark.label)</text>\n"
                }
            }
        }
        return svg + "</svg>\n"
    }

    /// A coordinate: never `inf` or `nan` in the SVG, whatever the data.
    private func f(_ v: Double) -> String {
        // Tenths by integer arithmetic: String(format:) made plotting a long recording slow.
        let tenths = Int((v.isFinite ? min(max(v, -1e7), 1e7) * 10 : 0).rounded())
        return "\(tenths < 0 ? "-" : "")\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }
}
