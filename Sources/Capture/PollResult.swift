/// What waiting on a device with poll(2) found.
public enum PollResult: Sendable, Equatable {
    /// A buffer can be dequeued (POLLIN).
    case readable
    /// Nothing happened within the timeout.
    case timedOut
    /// POLLERR/POLLHUP: the device is gone or not streaming; DQBUF tells which.
    case failed
}
