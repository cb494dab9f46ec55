import Imaging

extension FrontalFaceDetector {
    /// Whether `image` holds a face window centred near its middle: some filter, at a pyramid
    /// level whose window fits `faceWidths`, scores at least `adjustThreshold` above the model's
    /// threshold at a position whose box centre lies less than `radius` pixels from the image's
    /// centre on both axes. This is the tracker's window check: the image is the area around a
    /// tracked face, resampled so the face sits in the middle.
    ///
    /// Every score compared is one that `detect(image, in: .whole(…) with faceWidths)` computes,
    /// so a face `detect` reports near the centre is found here. There is no non-maximum
    /// suppression: a window near the centre counts even where a stronger one further out would
    /// have suppressed it. Only the responses at the positions near the centre are computed, the
    /// levels in order and the filters in the model's order (front first), and the search stops
    /// at the first window that scores: a frontal face costs one level's features and one
    /// filter at a few positions. Allocates nothing once `workspace` has grown.
    public func findsFace(centredIn image: GrayImage, within radius: Double, faceWidths: ClosedRange<Double>,
                          adjustThreshold: Double, using workspace: HOGWorkspace) -> Bool {
        guard !image.isEmpty else { return false }
        let levels = levelsToScan(width: image.width, height: image.height, upsample: 0, faceWidths: faceWidths)
        let centre = (x: Double(image.width) / 2, y: Double(image.height) / 2)
        return image.pixels.withUnsafeBufferPointer { pixels in
            forEachLevel(pixels.baseAddress!, width: image.width, height: image.height, levels: levels,
                         workspace: workspace) { level in
                scoresNearCentre(level: level, centre: centre, radius: radius, adjustThreshold: adjustThreshold,
                                 workspace: workspace)
            }
        }
    }

    /// Whether a filter scores at least `adjustThreshold` above its threshold, on the current
    /// level's features, at a position whose box centre is within `radius` of `centre`.
    private func scoresNearCentre(level: Int, centre: (x: Double, y: Double), radius: Double, adjustThreshold: Double,
                                  workspace: HOGWorkspace) -> Bool {
        let covered = coveredPositions(workspace.features)
        // A box's top and bottom follow its row alone, its left and right its column alone.
        let nearRows = Self.near(covered.rows, centre.y, radius) {
            let b = box(row: $0, column: covered.columns.lowerBound, level: level, score: 0, detector: 0)
            return Double(b.top + b.bottom + 1) / 2
        }
        let nearColumns = Self.near(covered.columns, centre.x, radius) {
            let b = box(row: covered.rows.lowerBound, column: $0, level: level, score: 0, detector: 0)
            return Double(b.left + b.right + 1) / 2
        }
        let columns = workspace.features.columns
        return forEachFilterResponse(rows: nearRows, columns: nearColumns, workspace: workspace) { detector, response in
            let threshold = thresholds[detector] + adjustThreshold
            return nearRows.contains { r in nearColumns.contains { c in Double(response[r * columns + c]) >= threshold } }
        }
    }

    /// The positions of `range` whose `centreOf` lies less than `radius` from `centre` (a
    /// contiguous run: box centres grow with the position).
    private static func near(_ range: Range<Int>, _ centre: Double, _ radius: Double,
                             centreOf: (Int) -> Double) -> Range<Int> {
        var first = range.upperBound, last = range.lowerBound - 1
        for p in range where abs(centreOf(p) - centre) < radius {
            first = min(first, p)
            last = max(last, p)
        }
        return first <= last ? first..<(last + 1) : range.lowerBound..<range.lowerBound
    }
}
