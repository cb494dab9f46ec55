@testable import HOGDetection
import XCTest

/// The separable correlation, both kernels (AVX2/FMA where the CPU has it, Swift SIMD), against
/// the sum written out in double: added to what the output holds, and written over it.
final class SeparableCorrelationTests: XCTestCase {
    func testBothKernelsMatchTheDirectSum() {
        var random = SystemRandomNumberGenerator()
        for (rows, columns, taps) in [(67, 87, 10), (14, 19, 10), (23, 50, 9), (30, 41, 5)] {
            let filter = SeparableFilter(plane: 0, row: (0..<taps).map { _ in Float.random(in: -1...1, using: &random) },
                                         column: (0..<taps + 1).map { _ in Float.random(in: -1...1, using: &random) })
            let filled = 4..<(rows - 5)
            var input = [Float](repeating: 0, count: rows * columns + 16)
            for r in filled { for c in 0..<columns { input[r * columns + c] = Float.random(in: 0...0.4, using: &random) } }
            let firstRow = filter.column.count / 2, firstColumn = taps / 2
            let lastRow = rows - (filter.column.count - 1) / 2, lastColumn = columns - (taps - 1) / 2
            for avx2 in [false, CPUFeatures.avx2] {
              for adding in [true, false] {
                var scratch = [Float](repeating: .nan, count: SeparableCorrelation.scratchCount(rows: rows, columns: columns))
                SeparableCorrelation.clearPadding(&scratch, rows: rows, columns: columns, filledRows: filled)
                var output = [Float](repeating: 1, count: rows * columns + 16)
                input.withUnsafeBufferPointer { input in
                    // Twice: what the first application leaves in the scratch rows is overwritten.
                    for _ in 0..<2 {
                        output.replaceSubrange(0..<output.count, with: repeatElement(1, count: output.count))
                        SeparableCorrelation.apply(filter, to: input.baseAddress!, rows: rows, columns: columns, filledRows: filled,
                                                   scratch: &scratch, addingTo: &output, adding: adding, avx2: avx2)
                    }
                }
                for r in firstRow..<lastRow {
                    for c in firstColumn..<lastColumn {
                        var sum = adding ? 1.0 : 0.0
                        for m in 0..<filter.column.count {
                            for n in 0..<taps {
                                sum += Double(filter.column[m]) * Double(filter.row[n])
                                    * Double(input[(r - firstRow + m) * columns + c - firstColumn + n])
                            }
                        }
                        XCTAssertEqual(Double(output[r * columns + c]), sum, accuracy: 1e-5,
                                       "\(rows)×\(columns), \(taps) taps, avx2 \(avx2), adding \(adding), at \(r), \(c)")
                    }
                }
              }
            }
        }
    }

    func testLimitedPositionsGetTheValuesOfTheWholePass() {
        var random = SystemRandomNumberGenerator()
        let (rows, columns) = (27, 27)
        let filter = SeparableFilter(plane: 0, row: (0..<10).map { _ in Float.random(in: -1...1, using: &random) },
                                     column: (0..<10).map { _ in Float.random(in: -1...1, using: &random) })
        let filled = 4..<22
        var input = [Float](repeating: 0, count: rows * columns + 16)
        for r in filled { for c in 0..<columns { input[r * columns + c] = Float.random(in: 0...0.4, using: &random) } }
        for avx2 in [false, CPUFeatures.avx2] {
            var scratch = [Float](repeating: .nan, count: SeparableCorrelation.scratchCount(rows: rows, columns: columns))
            SeparableCorrelation.clearPadding(&scratch, rows: rows, columns: columns, filledRows: filled)
            var whole = [Float](repeating: 1, count: rows * columns + 16)
            SeparableCorrelation.apply(filter, to: input, rows: rows, columns: columns, filledRows: filled,
                                       scratch: &scratch, addingTo: &whole, adding: true, avx2: avx2)
            // Ranges inside, across the edge of and outside the covered positions (5..<23).
            for (outputRows, outputColumns) in [(9..<16, 10..<17), (0..<8, 20..<27), (12..<13, 5..<23), (23..<27, 9..<12)] {
                var part = [Float](repeating: 1, count: rows * columns + 16)
                SeparableCorrelation.apply(filter, to: input, rows: rows, columns: columns, filledRows: filled,
                                           outputRows: outputRows, outputColumns: outputColumns,
                                           scratch: &scratch, addingTo: &part, adding: true, avx2: avx2)
                for r in outputRows.clamped(to: 5..<23) {
                    for c in outputColumns.clamped(to: 5..<23) {
                        XCTAssertEqual(part[r * columns + c], whole[r * columns + c],
                                       "avx2 \(avx2), rows \(outputRows), columns \(outputColumns), at \(r), \(c)")
                    }
                }
            }
        }
    }
}
