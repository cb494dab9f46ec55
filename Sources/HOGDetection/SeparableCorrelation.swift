/// dlib's `float_spatially_filter_image_separable` with `add_to`: a row pass over every row
/// into `scratch`, then a column pass added into `output` over the rows and columns the filter
/// fully covers (the others are left alone).
enum SeparableCorrelation {
    static func apply(_ filter: SeparableFilter, to input: UnsafePointer<Float>, rows: Int, columns: Int,
                      scratch: UnsafeMutablePointer<Float>, addingTo output: UnsafeMutablePointer<Float>) {
        let rowTaps = filter.row.count, columnTaps = filter.column.count
        let firstRow = columnTaps / 2, firstColumn = rowTaps / 2
        let lastRow = rows - (columnTaps - 1) / 2, lastColumn = columns - (rowTaps - 1) / 2
        filter.row.withUnsafeBufferPointer { row in
            for r in 0..<rows {
                let source = input + r * columns - firstColumn, target = scratch + r * columns
                var c = firstColumn
                while c + 8 <= lastColumn {
                    var sum = SIMD8<Float>(repeating: 0)
                    for n in 0..<rowTaps {
                        sum += UnsafeRawPointer(source + c + n).loadUnaligned(as: SIMD8<Float>.self) * row[n]
                    }
                    UnsafeMutableRawPointer(target + c).storeBytes(of: sum, as: SIMD8<Float>.self)
                    c += 8
                }
                while c < lastColumn {
                    var sum: Float = 0
                    for n in 0..<rowTaps { sum += source[c + n] * row[n] }
                    target[c] = sum
                    c += 1
                }
            }
        }
        filter.column.withUnsafeBufferPointer { column in
            for r in firstRow..<lastRow {
                let source = scratch + (r - firstRow) * columns, target = output + r * columns
                var c = firstColumn
                while c + 8 <= lastColumn {
                    var sum = SIMD8<Float>(repeating: 0)
                    for m in 0..<columnTaps {
                        sum += UnsafeRawPointer(source + m * columns + c).loadUnaligned(as: SIMD8<Float>.self) * column[m]
                    }
                    let previous = UnsafeRawPointer(target + c).loadUnaligned(as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(target + c).storeBytes(of: previous + sum, as: SIMD8<Float>.self)
                    c += 8
                }
                while c < lastColumn {
                    var sum: Float = 0
                    for m in 0..<columnTaps { sum += source[m * columns + c] * column[m] }
                    target[c] += sum
                    c += 1
                }
            }
        }
    }
}
