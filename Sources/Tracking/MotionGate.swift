import Imaging

/// Tells whether the view changed since the detector last looked at it, for almost nothing: the
/// frame is reduced to the means of 16×16-pixel cells (each from 16 sampled pixels), and it
/// changed when enough cells differ by more than a few gray levels from the frame last
/// `remember`ed (the last one scanned), so a slow entrance adds up until it counts. Sensor noise (a mean
/// of 16 samples varies by about σ/4) and JPEG flicker stay below the threshold; a person
/// entering the view changes dozens of cells.
///
/// Buffers are reused: no allocation per frame once the frame size is known.
public struct MotionGate: Sendable {
    /// Cell side in pixels.
    public static let cell = 16
    /// A cell changed when its mean moved by more than this many gray levels.
    public var threshold: Int = 8
    /// The frame moved when at least this many cells changed.
    public var minCells: Int = 4

    private var cells: [Int32] = []
    private var reference: [Int32] = []
    private var hasReference = false
    private var width = 0, height = 0

    public init() {}

    /// Forgets the remembered frame (the next frame counts as changed).
    public mutating func reset() {
        hasReference = false
    }

    /// Makes the frame last passed to `changed(_:)` the one later frames are compared with.
    public mutating func remember() {
        swap(&cells, &reference)
        hasReference = reference.count == width * height && width > 0
    }

    /// Whether `image` differs from the remembered frame (always true when none is remembered or
    /// the frame size changed).
    public mutating func changed(_ image: GrayImage) -> Bool {
        let columns = image.width / Self.cell, rows = image.height / Self.cell
        guard columns > 0, rows > 0 else { return true }
        if columns != width || rows != height || cells.count != columns * rows {
            width = columns
            height = rows
            cells = [Int32](repeating: 0, count: columns * rows)
            reference = cells
            hasReference = false
        }
        let stride = image.width, step = Self.cell / 4
        image.pixels.withUnsafeBufferPointer { pixels in
            cells.withUnsafeMutableBufferPointer { out in
                for row in 0..<rows {
                    for column in 0..<columns {
                        var sum: Int32 = 0
                        let base = row * Self.cell * stride + column * Self.cell + step / 2
                        for dy in 0..<4 {
                            let line = base + (dy * step + step / 2) * stride
                            for dx in 0..<4 { sum &+= Int32(pixels[line + dx * step]) }
                        }
                        out[row * columns + column] = sum
                    }
                }
            }
        }
        guard hasReference else { return true }
        let limit = Int32(threshold * 16)
        var changed = 0
        for i in cells.indices where abs(cells[i] - reference[i]) > limit {
            changed += 1
            if changed >= minCells { return true }
        }
        return false
    }
}
