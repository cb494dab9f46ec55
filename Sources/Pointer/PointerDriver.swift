import Events

/// Drives a pointer from the event stream: the first face's `nose` events move it (through a
/// `PointerMapper`), its long blinks or winks click (as `pointer.click` says: a blink of at least
/// `long_blink_s` is a left click; a left-eye wink a left click, a right-eye wink a right click).
/// Other faces are ignored. It is the pipeline's event sink for `facewatch pointer`.
public final class PointerDriver: EventSink {
    public let output: PointerOutput
    private var mapper: PointerMapper
    private var face: Int?

    public init(settings: PointerConfiguration, output: PointerOutput) {
        self.output = output
        mapper = PointerMapper(settings: settings)
    }

    public func write(_ event: Event) throws {
        switch event.payload {
        case .nose(let id, let x, let y) where follows(id):
            if let position = mapper.update(noseX: x, noseY: y, t: event.t) {
                try output.perform(.move(x: position.x, y: position.y), t: event.t, frame: event.frame)
            }
        case .blink(let id, _, let duration) where face == id && mapper.settings.click == .longBlink:
            if duration >= mapper.settings.longBlink { try output.perform(.click(.left), t: event.t, frame: event.frame) }
        case .wink(let id, let eye, _, _) where face == id && mapper.settings.click == .wink:
            try output.perform(.click(eye == .left ? .left : .right), t: event.t, frame: event.frame)
        case .faceLost(let id, _) where face == id:
            face = nil
            mapper = PointerMapper(settings: mapper.settings)
        default:
            break
        }
    }

    /// Whether `id` is the followed face (the first one seen, until it is lost).
    private func follows(_ id: Int) -> Bool {
        if face == nil { face = id }
        return face == id
    }
}
