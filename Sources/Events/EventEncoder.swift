import FaceCore

/// Serialises events to single JSON lines by hand: keys in a fixed order (`type`, `t`, `frame`,
/// then the type's fields in the order of shared/spec/events.md, added fields after them), no
/// spaces, numbers through `JSONNumber`, so the same event always gives the same bytes.
///
/// Precision: `t` and `start` 3 decimals (ms); `duration_ms` whole ms; ratios (`ear_*`, `mar`,
/// `smile`, `score`) and normalised `x`, `y`, `nose` 4 decimals; landmark pixels 2 decimals;
/// pose angles 2 decimals (degrees); `fps_*` 2 decimals; `latency_ms` 2 decimals.
///
/// Added to the spec: types `wink` (`face`, `eye`, `start`, `duration_ms`) and `eyes_closed`
/// (`face`, `state`, `start`, `duration_ms`); per face in `frame`, `pose` {`yaw`, `pitch`, `roll`}
/// and `thresholds` {`ear_close_left`, `ear_close_right`, `smile`, `mar`}
/// after `nose`. `stats.latency_ms` is an object {`p50`, `p95`}; `error.code` is a string.
public struct EventEncoder: Sendable {
    public init() {}

    /// Appends the event as one line, newline included.
    public func encode(_ event: Event, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"type":""#.utf8)
        out.append(contentsOf: event.type.rawValue.utf8)
        out.append(contentsOf: #"","t":"#.utf8)
        JSONNumber.append(event.t, decimals: 3, to: &out)
        out.append(contentsOf: #","frame":"#.utf8)
        JSONNumber.append(event.frame, to: &out)
        switch event.payload {
        case .faceFound(let face, let box):
            int("face", face, &out)
            key("box", &out)
            self.box(box, &out)
        case .faceLost(let face, let reason):
            int("face", face, &out)
            if reason == .end { string("reason", reason.rawValue, &out) }
        case .blink(let face, let start, let duration):
            int("face", face, &out)
            number("start", start, 3, &out)
            number("duration_ms", duration * 1000, 0, &out)
        case .wink(let face, let eye, let start, let duration):
            int("face", face, &out)
            string("eye", eye.rawValue, &out)
            number("start", start, 3, &out)
            number("duration_ms", duration * 1000, 0, &out)
        case .eyesClosed(let face, let state, let start, let duration):
            int("face", face, &out)
            string("state", state.rawValue, &out)
            number("start", start, 3, &out)
            number("duration_ms", duration * 1000, 0, &out)
        case .smile(let face, let state, let score):
            int("face", face, &out)
            string("state", state.rawValue, &out)
            number("score", score, 4, &out)
        case .mouthOpen(let face, let state, let mar):
            int("face", face, &out)
            string("state", state.rawValue, &out)
            number("mar", mar, 4, &out)
        case .nose(let face, let x, let y):
            int("face", face, &out)
            number("x", x, 4, &out)
            number("y", y, 4, &out)
        case .frame(let faces):
            key("faces", &out)
            out.append(0x5B)
            for (i, f) in faces.enumerated() {
                if i > 0 { out.append(0x2C) }
                frameFace(f, &out)
            }
            out.append(0x5D)
        case .stats(let s):
            number("fps_in", s.fpsIn, 2, &out)
            number("fps_out", s.fpsOut, 2, &out)
            int("dropped", s.dropped, &out)
            key("latency_ms", &out)
            out.append(contentsOf: #"{"p50":"#.utf8)
            JSONNumber.append(s.latencyP50, decimals: 2, to: &out)
            out.append(contentsOf: #","p95":"#.utf8)
            JSONNumber.append(s.latencyP95, decimals: 2, to: &out)
            out.append(0x7D)
            if let lost = s.mqttLost { int("mqtt_lost", lost, &out) }
        case .error(let message, let code):
            string("message", message, &out)
            string("code", code, &out)
        }
        out.append(contentsOf: [0x7D, 0x0A])  // }\n
    }

    /// The event's line as a string, newline included.
    public func line(_ event: Event) -> String {
        var out: [UInt8] = []
        encode(event, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func frameFace(_ f: FrameFace, _ out: inout [UInt8]) {
        out.append(contentsOf: #"{"face":"#.utf8)
        JSONNumber.append(f.face, to: &out)
        key("box", &out)
        box(f.box, &out)
        number("ear_left", f.earLeft, 4, &out)
        number("ear_right", f.earRight, 4, &out)
        number("mar", f.mar, 4, &out)
        number("smile", f.smile, 4, &out)
        key("nose", &out)
        out.append(contentsOf: #"{"x":"#.utf8)
        JSONNumber.append(f.nose.x, decimals: 4, to: &out)
        out.append(contentsOf: #","y":"#.utf8)
        JSONNumber.append(f.nose.y, decimals: 4, to: &out)
        out.append(0x7D)
        key("pose", &out)
        out.append(contentsOf: #"{"yaw":"#.utf8)
        JSONNumber.append(f.yaw, decimals: 2, to: &out)
        out.append(contentsOf: #","pitch":"#.utf8)
        JSONNumber.append(f.pitch, decimals: 2, to: &out)
        out.append(contentsOf: #","roll":"#.utf8)
        JSONNumber.append(f.roll, decimals: 2, to: &out)
        out.append(0x7D)
        if let thresholds = f.thresholds {
            key("thresholds", &out)
            out.append(contentsOf: #"{"ear_close_left":"#.utf8)
            JSONNumber.append(thresholds.earCloseLeft, decimals: 4, to: &out)
            out.append(contentsOf: #","ear_close_right":"#.utf8)
            JSONNumber.append(thresholds.earCloseRight, decimals: 4, to: &out)
            out.append(contentsOf: #","smile":"#.utf8)
            JSONNumber.append(thresholds.smile, decimals: 4, to: &out)
            out.append(contentsOf: #","mar":"#.utf8)
            JSONNumber.append(thresholds.mar, decimals: 4, to: &out)
            out.append(0x7D)
        }
        if let points = f.landmarks {
            key("landmarks", &out)
            out.append(0x5B)
            for (i, p) in points.enumerated() {
                if i > 0 { out.append(0x2C) }
                out.append(0x5B)
                JSONNumber.append(Double(p.x), decimals: 2, to: &out)
                out.append(0x2C)
                JSONNumber.append(Double(p.y), decimals: 2, to: &out)
                out.append(0x5D)
            }
            out.append(0x5D)
        }
        out.append(0x7D)
    }

    /// `,"name":`
    private func key(_ name: StaticString, _ out: inout [UInt8]) {
        out.append(contentsOf: [0x2C, 0x22])
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [0x22, 0x3A])
    }

    private func int(_ name: StaticString, _ value: Int, _ out: inout [UInt8]) {
        key(name, &out)
        JSONNumber.append(value, to: &out)
    }

    private func number(_ name: StaticString, _ value: Double, _ decimals: Int, _ out: inout [UInt8]) {
        key(name, &out)
        JSONNumber.append(value, decimals: decimals, to: &out)
    }

    private func string(_ name: StaticString, _ value: String, _ out: inout [UInt8]) {
        key(name, &out)
        JSONString.append(value, to: &out)
    }

    private func box(_ b: FaceBox, _ out: inout [UInt8]) {
        out.append(0x5B)
        JSONNumber.append(b.x, to: &out)
        out.append(0x2C)
        JSONNumber.append(b.y, to: &out)
        out.append(0x2C)
        JSONNumber.append(b.width, to: &out)
        out.append(0x2C)
        JSONNumber.append(b.height, to: &out)
        out.append(0x5D)
    }
}
