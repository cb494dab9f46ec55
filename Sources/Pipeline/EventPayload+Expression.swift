import Events
import Expressions

extension EventPayload {
    /// The event-stream form of a state machine's event for face `face`.
    init(_ event: ExpressionEvent, face: Int) {
        switch event {
        case .blink(let start, let duration):
            self = .blink(face: face, start: start, duration: duration)
        case .wink(let eye, let start, let duration):
            self = .wink(face: face, eye: eye == .left ? .left : .right, start: start, duration: duration)
        case .eyesClosed(let transition, let start, let duration):
            self = .eyesClosed(face: face, state: EventState(transition), start: start, duration: duration)
        case .smile(let transition, let score):
            self = .smile(face: face, state: EventState(transition), score: score)
        case .mouthOpen(let transition, let mar):
            self = .mouthOpen(face: face, state: EventState(transition), mar: mar)
        }
    }
}

extension EventState {
    init(_ transition: Transition) {
        self = transition == .start ? .start : .end
    }
}
