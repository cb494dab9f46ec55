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
            let group = SeparableFilterGroup([filter])
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
                        SeparableCorrelation.apply(group, to: input.baseAddress!, rows: rows, columns: columns, filledRows: filled,
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

    /// A group's parts applied together (their row passes sharing loads) give, bit for bit, what
    /// applying them one at a time gives: odd and even row counts, rows not a multiple of 16
    /// columns, whole and limited output positions, written and added.
    func testAGroupEqualsItsPartsOneAtATime() {
        var random = SystemRandomNumberGenerator()
        for (rows, columns) in [(67, 87), (26, 40), (19, 27)] {
            let filled = 4..<(rows - 5)
            var input = [Float](repeating: 0, count: rows * columns + 16)
            for r in filled { for c in 0..<columns { input[r * columns + c] = Float.random(in: 0...0.4, using: &random) } }
            for count in 1...SeparableFilterGroup.largest {
                let parts = (0..<count).map { _ in
                    SeparableFilter(plane: 0, row: (0..<10).map { _ in Float.random(in: -1...1, using: &random) },
                                    column: (0..<10).map { _ in Float.random(in: -1...1, using: &random) })
                }
                let group = SeparableFilterGroup(parts)
                for avx2 in [false, CPUFeatures.avx2] {
                    for adding in [true, false] {
                        for (outputRows, outputColumns) in [(nil, nil), (8..<14, 9..<16)] as [(Range<Int>?, Range<Int>?)] {
                            var scratch = [Float](repeating: .nan, count: SeparableCorrelation.scratchCount(
                                parts: count, rows: rows, columns: columns))
                            SeparableCorrelation.clearPadding(&scratch, parts: count, rows: rows, columns: columns,
                                                              filledRows: filled)
                            var together = [Float](repeating: 1, count: rows * columns + 16)
                            SeparableCorrelation.apply(group, to: input, rows: rows, columns: columns, filledRows: filled,
                                                       outputRows: outputRows, outputColumns: outputColumns,
                                                       scratch: &scratch, addingTo: &together, adding: adding, avx2: avx2)
                            var alone = [Float](repeating: 1, count: rows * columns + 16)
                            for (index, part) in parts.enumerated() {
                                SeparableCorrelation.apply(SeparableFilterGroup([part]), to: input, rows: rows, columns: columns,
                                                           filledRows: filled, outputRows: outputRows, outputColumns: outputColumns,
                                                           scratch: &scratch, addingTo: &alone, adding: adding || index > 0,
                                                           avx2: avx2)
                            }
                            let covered = (5..<(rows - 4)).clamped(to: outputRows ?? 0..<rows)
                            let coveredColumns = (5..<(columns - 4)).clamped(to: outputColumns ?? 0..<columns)
                            XCTAssertFalse(covered.isEmpty || coveredColumns.isEmpty)
                            for r in covered {
                                for c in coveredColumns where together[r * columns + c].bitPattern != alone[r * columns + c].bitPattern {
                                    XCTFail("\(rows)×\(columns), \(count) parts, avx2 \(avx2), adding \(adding), at \(r), \(c): "
                                            + "\(together[r * columns + c]) against \(alone[r * columns + c])")
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Consecutive parts on one plane form groups of at most three, in order.
    func testGroupingKeepsTheOrderAndSplitsByPlane() {
        let planes = [0, 0, 1, 2, 2, 2, 2, 3, 1]
        let parts = planes.map { SeparableFilter(plane: $0, row: [Float($0)], column: [1]) }
        let groups = SeparableFilterGroup.grouping(parts)
        XCTAssertEqual(groups.map { $0.parts.map(\.plane) }, [[0, 0], [1], [2, 2, 2], [2], [3], [1]])
        XCTAssertEqual(groups[2].rowTaps, [2, 2, 2])
    }

    /// The columns a column pass leaves after its blocks of 32 go through the narrow kernel (up to
    /// 8 rows at a time, so that there are enough independent sums); each must get, bit for bit,
    /// the value a block of 32 gives it: the whole pass against one limited to its last 32 columns.
    func testTheLastColumnsGetTheValuesOfA32ColumnBlock() throws {
        try XCTSkipUnless(CPUFeatures.avx2, "this CPU has no AVX2")
        var random = SystemRandomNumberGenerator()
        for taps in [10, 8] {
            for covered in [33, 40, 47, 50, 63, 70] {
                let (rows, columns) = (41, covered + taps - 1)
                let filter = SeparableFilter(plane: 0, row: (0..<taps).map { _ in Float.random(in: -1...1, using: &random) },
                                             column: (0..<taps).map { _ in Float.random(in: -1...1, using: &random) })
                let group = SeparableFilterGroup([filter])
                let filled = 3..<37
                var input = [Float](repeating: 0, count: rows * columns + 16)
                for r in filled { for c in 0..<columns { input[r * columns + c] = Float.random(in: 0...0.4, using: &random) } }
                let firstColumn = taps / 2, lastColumn = firstColumn + covered
                let firstRow = taps / 2, lastRow = rows - (taps - 1) / 2
                for adding in [true, false] {
                    var scratch = [Float](repeating: .nan, count: SeparableCorrelation.scratchCount(rows: rows, columns: columns))
                    SeparableCorrelation.clearPadding(&scratch, rows: rows, columns: columns, filledRows: filled)
                    var whole = [Float](repeating: 0.5, count: rows * columns + 16), block = whole
                    SeparableCorrelation.apply(group, to: input, rows: rows, columns: columns, filledRows: filled,
                                               scratch: &scratch, addingTo: &whole, adding: adding)
                    SeparableCorrelation.apply(group, to: input, rows: rows, columns: columns, filledRows: filled,
                                               outputColumns: (lastColumn - 32)..<lastColumn,
                                               scratch: &scratch, addingTo: &block, adding: adding)
                    var differences = 0
                    for r in firstRow..<lastRow {
                        for c in (lastColumn - 32)..<lastColumn where whole[r * columns + c].bitPattern != block[r * columns + c].bitPattern {
                            differences += 1
                        }
                    }
                    XCTAssertEqual(differences, 0, "\(taps) taps, \(covered) columns, adding \(adding)")
                }
            }
        }
    }

    func testLimitedPositionsGetTheValuesOfTheWholePass() {
        var random = SystemRandomNumberGenerator()
        let (rows, columns) = (27, 27)
        let filter = SeparableFilter(plane: 0, row: (0..<10).map { _ in Float.random(in: -1...1, using: &random) },
                                     column: (0..<10).map { _ in Float.random(in: -1...1, using: &random) })
        let group = SeparableFilterGroup([filter])
        let filled = 4..<22
        var input = [Float](repeating: 0, count: rows * columns + 16)
        for r in filled { for c in 0..<columns { input[r * columns + c] = Float.random(in: 0...0.4, using: &random) } }
        for avx2 in [false, CPUFeatures.avx2] {
            var scratch = [Float](repeating: .nan, count: SeparableCorrelation.scratchCount(rows: rows, columns: columns))
            SeparableCorrelation.clearPadding(&scratch, rows: rows, columns: columns, filledRows: filled)
            var whole = [Float](repeating: 1, count: rows * columns + 16)
            SeparableCorrelation.apply(group, to: input, rows: rows, columns: columns, filledRows: filled,
                                       scratch: &scratch, addingTo: &whole, adding: true, avx2: avx2)
            // Ranges inside, across the edge of and outside the covered positions (5..<23).
            for (outputRows, outputColumns) in [(9..<16, 10..<17), (0..<8, 20..<27), (12..<13, 5..<23), (23..<27, 9..<12)] {
                var part = [Float](repeating: 1, count: rows * columns + 16)
                SeparableCorrelation.apply(group, to: input, rows: rows, columns: columns, filledRows: filled,
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
