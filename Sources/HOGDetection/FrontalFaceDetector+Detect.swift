import Foundation
import Imaging

extension FrontalFaceDetector {
    /// The faces in `image`, as `detector.run(image, upsample, adjust_threshold)` in dlib's
    /// Python API reports them: the image upsampled `upsample` times (`pyramid_up`), every
    /// detection scoring at least `adjustThreshold`, overlapping ones suppressed, boxes mapped
    /// back to `image`, best first.
    public func detect(_ image: GrayImage, upsample: Int = 0, adjustThreshold: Double = 0,
                       using workspace: HOGWorkspace = HOGWorkspace()) -> [FaceDetection] {
        detect(image, in: .whole(width: image.width, height: image.height), upsample: upsample,
               adjustThreshold: adjustThreshold, using: workspace)
    }

    /// The faces in an area of `image` (see `ScanArea`), in the image's coordinates.
    public func detect(_ image: GrayImage, in area: ScanArea, upsample: Int = 0, adjustThreshold: Double = 0,
                       using workspace: HOGWorkspace = HOGWorkspace()) -> [FaceDetection] {
        var faces: [FaceDetection] = []
        detect(image, in: area, upsample: upsample, adjustThreshold: adjustThreshold, using: workspace, into: &faces)
        return faces
    }

    /// The faces in an area of `image` into `faces` (replacing its contents, reusing its storage):
    /// with a reused workspace and array, a detection allocates nothing once both have grown.
    public func detect(_ image: GrayImage, in area: ScanArea, upsample: Int = 0, adjustThreshold: Double = 0,
                       using workspace: HOGWorkspace, into faces: inout [FaceDetection]) {
        precondition((0...8).contains(upsample), "upsample must be 0...8")
        faces.removeAll(keepingCapacity: true)
        let left = max(area.left, 0), top = max(area.top, 0)
        let right = min(area.right, image.width - 1), bottom = min(area.bottom, image.height - 1)
        guard left <= right, top <= bottom else { return }
        var width = right - left + 1, height = bottom - top + 1
        let whole = width == image.width && height == image.height

        // The image scanned: the area, upsampled.
        var scanned: UnsafePointer<UInt8>
        if whole && upsample == 0 {
            scanned = image.pixels.withUnsafeBufferPointer { UnsafePointer($0.baseAddress!) }
        } else {
            let crop = workspace.source.reserve(width * height)
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    (crop + y * width).update(from: pixels.baseAddress! + (top + y) * image.width + left, count: width)
                }
            }
            scanned = UnsafePointer(crop)
            var buffers = (workspace.imageA, workspace.imageB)
            for _ in 0..<upsample {
                let up = PyramidResize.upSize(width: width, height: height)
                let output = buffers.0.reserve(up.width * up.height)
                PyramidResize.resize(scanned, width: width, height: height, into: output, width: up.width, height: up.height,
                                     columns: workspace.resizeColumns)
                scanned = UnsafePointer(output)
                (width, height) = up
                buffers = (buffers.1, buffers.0)
            }
            if upsample > 0 {
                // Keep the scanned image out of the pyramid's buffers.
                let copy = workspace.source.reserve(width * height)
                copy.update(from: scanned, count: width * height)
                scanned = UnsafePointer(copy)
            }
        }

        let levels = levelsToScan(width: width, height: height, upsample: upsample, faceWidths: area.faceWidths)
        withExtendedLifetime(image) {
            scan(scanned, width: width, height: height, levels: levels, adjustThreshold: adjustThreshold, workspace: workspace)
        }
        for var box in workspace.kept {
            if upsample > 0 { box = Self.mapDown(box, levels: upsample) }
            box.left += left
            box.right += left
            box.top += top
            box.bottom += top
            faces.append(box)
        }
    }

    /// dlib's pyramid level count for an image (levels while the level rectangle is at least
    /// the minimum layer size), limited to the levels whose window fits `faceWidths`.
    func levelsToScan(width: Int, height: Int, upsample: Int, faceWidths: ClosedRange<Double>?) -> Range<Int> {
        var count = 0
        var rect = (left: 0, top: 0, right: width - 1, bottom: height - 1)
        func down(_ p: Int) -> Int { Int(((Double(p) - 0.3) * (5.0 / 6.0)).rounded()) }
        repeat {
            rect = (down(rect.left), down(rect.top), down(rect.right), down(rect.bottom))
            count += 1
        } while rect.right - rect.left + 1 >= minLevelWidth && rect.bottom - rect.top + 1 >= minLevelHeight
            && count < maxPyramidLevels
        guard let faceWidths else { return 0..<count }
        let window = Double(windowSize.width) / Double(1 << upsample)
        let lowest = (0..<count).first { window * pow(1.2, Double($0)) >= faceWidths.lowerBound } ?? count
        let highest = (0..<count).last { window * pow(1.2, Double($0)) <= faceWidths.upperBound } ?? -1
        return lowest <= highest ? lowest..<(highest + 1) : 0..<0
    }

    /// `object_detector::operator()` on one image: every level's fHOG, every filter's response,
    /// detections at or above threshold, then non-maximum suppression, into `workspace.kept`.
    /// With a helper workspace and a large image, the levels from `split` on are scanned on a
    /// second thread; its detections follow the first part's, as if one thread had scanned all.
    private func scan(_ image: UnsafePointer<UInt8>, width: Int, height: Int, levels: Range<Int>,
                      adjustThreshold: Double, workspace: HOGWorkspace) {
        workspace.candidates.removeAll(keepingCapacity: true)
        if let helper = workspace.helper, width * height >= Self.smallestSplitScan,
           let split = Self.split(levels) {
            helper.workspace.candidates.removeAll(keepingCapacity: true)
            helper.begin(self, image, width: width, height: height, levels: split..<levels.upperBound,
                         adjustThreshold: adjustThreshold)
            scanLevels(image, width: width, height: height, levels: levels.lowerBound..<split,
                       adjustThreshold: adjustThreshold, workspace: workspace)
            helper.wait()
            workspace.candidates.append(contentsOf: helper.workspace.candidates)
        } else {
            scanLevels(image, width: width, height: height, levels: levels, adjustThreshold: adjustThreshold,
                       workspace: workspace)
        }
        workspace.candidates.sort { $0.score > $1.score }
        workspace.kept.removeAll(keepingCapacity: true)
        for candidate in workspace.candidates where !workspace.kept.contains(where: { overlap.overlaps($0, candidate) }) {
            workspace.kept.append(candidate)
        }
    }

    /// Images of fewer pixels are scanned on one thread: handing half of a small scan to another
    /// thread costs about what it saves.
    static let smallestSplitScan = 160_000

    /// The first level of the second part when `levels` are scanned in two: the parts' pixel
    /// counts (each level has 25/36 of the one before) as near to equal as they can be. Nil when
    /// there are fewer than two levels.
    static func split(_ levels: Range<Int>) -> Int? {
        guard levels.count >= 2 else { return nil }
        let shrink = 25.0 / 36.0
        let total = (1 - pow(shrink, Double(levels.count))) / (1 - shrink)
        var best = levels.lowerBound + 1, bestImbalance = Double.infinity
        var first = 0.0, area = 1.0
        for level in levels.dropLast() {
            first += area
            area *= shrink
            let imbalance = abs(2 * first - total)
            if imbalance < bestImbalance {
                best = level + 1
                bestImbalance = imbalance
            }
        }
        return best
    }

    /// The levels `levels` of the pyramid of `image` (resized from level 0 on), their detections
    /// appended to `workspace.candidates` in level order.
    func scanLevels(_ image: UnsafePointer<UInt8>, width: Int, height: Int, levels: Range<Int>,
                            adjustThreshold: Double, workspace: HOGWorkspace) {
        forEachLevel(image, width: width, height: height, levels: levels, workspace: workspace) { level in
            collectDetections(level: level, adjustThreshold: adjustThreshold, workspace: workspace)
            return false
        }
    }

    /// Computes the fHOG features of the levels `levels` of the pyramid of `image` (resized from
    /// level 0 on) into `workspace.features`, one after the other, calling `body` with each
    /// level's index; stops when `body` returns true, and returns whether one did.
    @discardableResult
    func forEachLevel(_ image: UnsafePointer<UInt8>, width: Int, height: Int, levels: Range<Int>,
                      workspace: HOGWorkspace, _ body: (Int) -> Bool) -> Bool {
        var level = image, levelWidth = width, levelHeight = height
        var buffers = (workspace.imageA, workspace.imageB)
        for l in 0..<levels.upperBound {
            if l > 0 {
                let size = PyramidResize.downSize(width: levelWidth, height: levelHeight)
                let output = buffers.0.reserve(max(size.width * size.height, 1))
                PyramidResize.resize(level, width: levelWidth, height: levelHeight,
                                     into: output, width: size.width, height: size.height, columns: workspace.resizeColumns)
                level = UnsafePointer(output)
                (levelWidth, levelHeight) = size
                buffers = (buffers.1, buffers.0)
            }
            guard levels.contains(l) else { continue }
            FHOG.extract(level, width: levelWidth, height: levelHeight, cellSize: cellSize,
                         filterRows: filterHeight, filterColumns: filterWidth, into: &workspace.features)
            if body(l) { return true }
        }
        return false
    }

    /// Applies every filter to the current level's features and records the positions whose
    /// response reaches the threshold.
    private func collectDetections(level: Int, adjustThreshold: Double, workspace: HOGWorkspace) {
        let covered = coveredPositions(workspace.features)
        let columns = workspace.features.columns
        forEachFilterResponse(rows: covered.rows, columns: covered.columns, workspace: workspace) { detector, response in
            let threshold = thresholds[detector]
            for r in covered.rows {
                for c in covered.columns where Double(response[r * columns + c]) >= threshold + adjustThreshold {
                    workspace.candidates.append(box(row: r, column: c, level: level,
                                                    score: Double(response[r * columns + c]) - threshold, detector: detector))
                }
            }
            return false
        }
    }

    /// The positions of `features` that a whole filter window covers (empty ranges when the level
    /// is smaller than a filter).
    func coveredPositions(_ features: FHOG.Buffers) -> (rows: Range<Int>, columns: Range<Int>) {
        let firstRow = filterHeight / 2, firstColumn = filterWidth / 2
        let lastRow = max(firstRow, features.rows - (filterHeight - 1) / 2)
        let lastColumn = max(firstColumn, features.columns - (filterWidth - 1) / 2)
        return (firstRow..<lastRow, firstColumn..<lastColumn)
    }

    /// Each filter's response to the current level's features at the positions `rows` × `columns`
    /// (within `coveredPositions`), into `workspace.response` (row stride: the features' columns),
    /// one filter after the other in the model's order; `body` gets the filter's index and the
    /// responses after each, and stops the loop by returning true. Returns whether it did.
    @discardableResult
    func forEachFilterResponse(rows: Range<Int>, columns: Range<Int>, workspace: HOGWorkspace,
                               _ body: (Int, UnsafeMutablePointer<Float>) -> Bool) -> Bool {
        let features = workspace.features
        let planeRows = features.rows, planeColumns = features.columns
        guard !rows.isEmpty, !columns.isEmpty else { return false }
        let largest = SeparableFilterGroup.largest
        let scratch = workspace.scratch.reserve(SeparableCorrelation.scratchCount(parts: largest, rows: planeRows,
                                                                                  columns: planeColumns))
        let response = workspace.response.reserve(planeRows * planeColumns)
        SeparableCorrelation.clearPadding(scratch, parts: largest, rows: planeRows, columns: planeColumns,
                                          filledRows: features.filledRows)
        return features.planes.withUnsafeBufferPointer { planes in
            for (detector, groups) in filters.enumerated() {
                // The first part's column pass writes the responses, the others add to them
                // (0 + x is x: the same sums as adding to zeroes).
                if groups.isEmpty { response.update(repeating: 0, count: planeRows * planeColumns) }
                for (index, group) in groups.enumerated() {
                    SeparableCorrelation.apply(group, to: planes.baseAddress! + group.plane * planeRows * planeColumns,
                                               rows: planeRows, columns: planeColumns, filledRows: features.filledRows,
                                               outputRows: rows, outputColumns: columns,
                                               scratch: scratch, addingTo: response, adding: index > 0)
                }
                if body(detector, response) { return true }
            }
            return false
        }
    }

    /// dlib's `feats_to_image` of the window centred on a feature cell, then `rect_up` through
    /// `level` pyramid levels (×1.2 + 0.3 each), rounded.
    func box(row: Int, column: Int, level: Int, score: Double, detector: Int) -> FaceDetection {
        let boxWidth = filterWidth - 2 * padding, boxHeight = filterHeight - 2 * padding
        let left = column - boxWidth / 2, top = row - boxHeight / 2
        func toImage(_ p: Int, _ filterSize: Int) -> Int {
            let q = (p + 1 - (filterSize - 1) / 2) * cellSize + 1
            return q + (q >= 0 ? cellSize / 2 : -(cellSize / 2))
        }
        func up(_ p: Int) -> Int {
            var value = Double(p)
            for _ in 0..<level { value = value * (6.0 / 5.0) + 0.3 }
            return Int(value.rounded())
        }
        return FaceDetection(left: up(toImage(left, filterWidth)), top: up(toImage(top, filterHeight)),
                             right: up(toImage(left + boxWidth - 1, filterWidth)),
                             bottom: up(toImage(top + boxHeight - 1, filterHeight)),
                             score: score, detector: detector)
    }

    /// The Python API's mapping of a box found on an upsampled image back to the original:
    /// `pyramid_down<2>::rect_down` (`p/2 − (1.25, 0.75)` per level), rounded.
    private static func mapDown(_ box: FaceDetection, levels: Int) -> FaceDetection {
        func down(_ p: Int, _ shift: Double) -> Int {
            var value = Double(p)
            for _ in 0..<levels { value = value / 2 - shift }
            return Int(value.rounded())
        }
        var mapped = box
        mapped.left = down(box.left, 1.25)
        mapped.right = down(box.right, 1.25)
        mapped.top = down(box.top, 0.75)
        mapped.bottom = down(box.bottom, 0.75)
        return mapped
    }
}
