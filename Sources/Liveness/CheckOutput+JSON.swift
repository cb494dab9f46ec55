import Events

extension CheckOutput {
    /// The output as one JSON line (with its newline), in the event stream's style: `type`, `t`,
    /// `frame` first, then the fields in a fixed order.
    ///
    /// - prompt: `{"type":"prompt","t":1.2,"frame":36,"step":"blink:2","index":0,"of":2,"timeout_s":5}`
    /// - cue: `{"type":"cue","t":2.4,"frame":72,"step":"blink","trial":1,"of":5,"window_s":[0.15,0.9]}`
    /// - adjust: `{"type":"prompt","t":0.5,"frame":15,"step":"adjust","reason":"move_closer"}`
    /// - identity: `{"type":"identity","t":1.2,"frame":36,"face":1,"name":"alice","distance":0.3124,
    ///   "threshold":0.6,"match":true}`
    /// - verdict: `{"type":"verdict","t":..,"frame":..,"pass":true,"reason":null,"face":1,
    ///   "challenge":"blink:2,smile","steps":[{"step":"blink:2","result":"done","prompt_t":1.2,
    ///   "done_t":2.5,"latencies_s":[0.41,0.38],"missed":0,"early":1,"early_runs":0,"flat":0,
    ///   "holding_s":4.81,"chance":0.000012},…],"micro_motion":0.0123}`
    public var jsonLine: String {
        var out: [UInt8] = []
        func key(_ name: String) { out += Array("\"\(name)\":".utf8) }
        func string(_ value: String) { JSONString.append(value, to: &out) }
        func number(_ value: Double, _ decimals: Int = 3) { JSONNumber.append(value, decimals: decimals, to: &out) }
        func head(_ type: String, _ t: Double, _ frame: Int) {
            out += Array("{\"type\":".utf8); string(type)
            out += Array(",".utf8); key("t"); number(t)
            out += Array(",".utf8); key("frame"); JSONNumber.append(frame, to: &out)
        }
        switch self {
        case .prompt(let step, let index, let of, let t, let frame, let timeout):
            head("prompt", t, frame)
            out += Array(",".utf8); key("step"); string(step.description)
            out += Array(",".utf8); key("index"); JSONNumber.append(index, to: &out)
            out += Array(",".utf8); key("of"); JSONNumber.append(of, to: &out)
            out += Array(",".utf8); key("timeout_s"); number(timeout)
        case .cue(let step, let trial, let of, let t, let frame, let window):
            head("cue", t, frame)
            out += Array(",".utf8); key("step"); string(step.description)
            out += Array(",".utf8); key("trial"); JSONNumber.append(trial, to: &out)
            out += Array(",".utf8); key("of"); JSONNumber.append(of, to: &out)
            out += Array(",".utf8); key("window_s"); out += Array("[".utf8)
            number(window.lowerBound); out += Array(",".utf8); number(window.upperBound); out += Array("]".utf8)
        case .adjust(let reason, let t, let frame):
            head("prompt", t, frame)
            out += Array(",".utf8); key("step"); string("adjust")
            out += Array(",".utf8); key("reason"); string(reason.rawValue)
        case .identity(let reading):
            head("identity", reading.t, reading.frame)
            out += Array(",".utf8); key("face"); JSONNumber.append(reading.face, to: &out)
            out += Array(",".utf8); key("name"); string(reading.name)
            out += Array(",".utf8); key("distance"); number(reading.distance, 4)
            out += Array(",".utf8); key("threshold"); number(reading.threshold, 4)
            out += Array(",\"match\":\(reading.match)".utf8)
        case .verdict(let verdict):
            head("verdict", verdict.t, verdict.frame)
            out += Array(",\"pass\":\(verdict.passed)".utf8)
            out += Array(",".utf8); key("reason")
            if let reason = verdict.reason { string(reason.rawValue) } else { out += Array("null".utf8) }
            out += Array(",".utf8); key("face")
            if let face = verdict.face { JSONNumber.append(face, to: &out) } else { out += Array("null".utf8) }
            out += Array(",".utf8); key("challenge"); string(verdict.challenge.description)
            out += Array(",\"steps\":[".utf8)
            for (n, step) in verdict.steps.enumerated() {
                if n > 0 { out += Array(",".utf8) }
                out += Array("{".utf8); key("step"); string(step.step.description)
                out += Array(",".utf8); key("result"); string(step.doneT != nil ? "done" : step.failure?.rawValue ?? "not_done")
                out += Array(",".utf8); key("prompt_t"); number(step.promptT)
                out += Array(",".utf8); key("done_t")
                if let done = step.doneT { number(done) } else { out += Array("null".utf8) }
                out += Array(",".utf8); key("latencies_s"); out += Array("[".utf8)
                for (k, latency) in step.latencies.enumerated() {
                    if k > 0 { out += Array(",".utf8) }
                    number(latency)
                }
                out += Array("]".utf8)
                out += Array(",".utf8); key("missed"); JSONNumber.append(step.missed, to: &out)
                out += Array(",".utf8); key("early"); JSONNumber.append(step.early, to: &out)
                out += Array(",".utf8); key("early_runs"); JSONNumber.append(step.earlyRuns, to: &out)
                out += Array(",".utf8); key("flat"); JSONNumber.append(step.flat, to: &out)
                out += Array(",".utf8); key("holding_s"); number(step.holding)
                out += Array(",".utf8); key("chance")
                if let chance = step.chance { number(chance, 6) } else { out += Array("null".utf8) }
                out += Array("}".utf8)
            }
            out += Array("]".utf8)
            out += Array(",".utf8); key("micro_motion"); number(verdict.microMotion, 4)
            if let identity = verdict.identity {
                out += Array(",".utf8); key("identity"); string(identity)
                out += Array(",".utf8); key("identity_distance")
                if let d = verdict.identityDistance { number(d, 4) } else { out += Array("null".utf8) }
            }
        }
        out += Array("}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}
