/// Where events go. The pipeline talks to this seam; `JSONLinesWriter` writes them out, tests can
/// collect them.
public protocol EventSink: AnyObject {
    /// Handles one event.
    func write(_ event: Event) throws
}
