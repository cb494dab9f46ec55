import COpenBLAS
import Foundation

/// dlib's face recognition ResNet (`dlib_face_recognition_resnet_model_v1.dat`) run in float32:
/// a 150×150 RGB face chip in, 128 numbers out, equal to dlib's `compute_face_descriptor`
/// (num_jitters 0) within float rounding.
///
/// Convolutions run as im2col + OpenBLAS `sgemm` on one thread. Every buffer is allocated when
/// the network is loaded, so describing a face allocates nothing. Not thread-safe: give each
/// thread its own network (weights are immutable arrays, shared copy-on-write).
public final class DescriptorNetwork {
    public static let chipSize = 150
    public static let descriptorLength = 128

    private struct Shape: Equatable { var channels: Int, rows: Int, columns: Int
        var count: Int { channels * rows * columns }
    }

    private let weights: NetworkWeights
    /// Output shape of every layer, and the buffer each layer writes into.
    private let shapes: [Shape]
    private let outputIndex: [Int]
    private let inputShape = Shape(channels: 3, rows: chipSize, columns: chipSize)
    private var buffers: [UnsafeMutablePointer<Float>] = []
    private let columns: UnsafeMutablePointer<Float>

    /// Loads and checks the model at `path`.
    public convenience init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw FaceDescriptorError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        try self.init(serialized: data, path: path)
    }

    /// Parses and checks a model from the bytes of its `.dat` file; `path` is used in error messages.
    public convenience init(serialized data: Data, path: String) throws {
        do {
            let weights = try data.withUnsafeBytes { try NetworkWeights(bytes: $0) }
            try self.init(weights: weights)
        } catch let failure as FaceDescriptorError {
            throw failure
        } catch {
            throw FaceDescriptorError.malformed(path: path, reason: "\(error)")
        }
    }

    /// Loads the model from the first place `locator` finds it.
    public convenience init(locator: DescriptorModelLocator = DescriptorModelLocator()) throws {
        try self.init(contentsOf: try locator.locate())
    }

    private init(weights: NetworkWeights) throws {
        guard fw_blas_load() == 0 else { throw FaceDescriptorError.blasMissing(reason: String(cString: fw_blas_error())) }
        self.weights = weights
        var shapes: [Shape] = []
        var current = Shape(channels: 3, rows: Self.chipSize, columns: Self.chipSize)
        var currentBuffer = -1  // -1: the input tensor
        var tags: [Int: (Shape, Int)] = [:]
        var outputIndex: [Int] = []
        var bufferCount = 0
        var columnsNeeded = 0
        for layer in weights.layers {
            switch layer {
            case .tag(let id):
                tags[id] = (current, currentBuffer)
            case .skip(let id):
                guard let stored = tags[id] else { throw DlibFormatProblem("skip to unset tag \(id)") }
                (current, currentBuffer) = stored
            case .convolution(let filters, let channels, let size, let stride, let padding, _, _):
                guard channels == current.channels else { throw DlibFormatProblem("convolution expects \(channels) channels, gets \(current.channels)") }
                let rows = 1 + (current.rows + 2 * padding - size) / stride
                let cols = 1 + (current.columns + 2 * padding - size) / stride
                columnsNeeded = max(columnsNeeded, channels * size * size * rows * cols)
                current = Shape(channels: filters, rows: rows, columns: cols)
                currentBuffer = bufferCount; bufferCount += 1
            case .maxPool(let size, let stride), .averagePool(let size, let stride):
                current = Shape(channels: current.channels, rows: 1 + (current.rows - size) / stride,
                                columns: 1 + (current.columns - size) / stride)
                currentBuffer = bufferCount; bufferCount += 1
            case .averagePoolEverything:
                current = Shape(channels: current.channels, rows: 1, columns: 1)
                currentBuffer = bufferCount; bufferCount += 1
            case .addPrevious(let id):
                guard let (other, _) = tags[id] else { throw DlibFormatProblem("add_prev of unset tag \(id)") }
                current = Shape(channels: max(current.channels, other.channels), rows: max(current.rows, other.rows),
                                columns: max(current.columns, other.columns))
                currentBuffer = bufferCount; bufferCount += 1
            case .fullyConnected(let inputs, let outputs, _):
                guard inputs == current.count else { throw DlibFormatProblem("fully connected layer expects \(inputs) inputs, gets \(current.count)") }
                current = Shape(channels: outputs, rows: 1, columns: 1)
                currentBuffer = bufferCount; bufferCount += 1
            case .affine(let gamma, _):
                guard gamma.count == current.channels else { throw DlibFormatProblem("affine layer for \(gamma.count) channels gets \(current.channels)") }
            case .relu:
                break  // in place
            }
            guard current.count > 0 else { throw DlibFormatProblem("a layer's output is empty") }
            shapes.append(current)
            outputIndex.append(currentBuffer)
        }
        guard current == Shape(channels: Self.descriptorLength, rows: 1, columns: 1) else {
            throw DlibFormatProblem("the network ends in \(current.count) values, expected \(Self.descriptorLength)")
        }
        self.shapes = shapes
        self.outputIndex = outputIndex
        var sizes = [Int](repeating: 0, count: bufferCount)
        for (shape, index) in zip(shapes, outputIndex) where index >= 0 { sizes[index] = max(sizes[index], shape.count) }
        buffers = sizes.map { size in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: size)
            p.initialize(repeating: 0, count: size)
            return p
        }
        inputBuffer = UnsafeMutablePointer<Float>.allocate(capacity: inputShape.count)
        inputBuffer.initialize(repeating: 0, count: inputShape.count)
        columns = UnsafeMutablePointer<Float>.allocate(capacity: max(columnsNeeded, 1))
    }

    private let inputBuffer: UnsafeMutablePointer<Float>

    deinit {
        for b in buffers { b.deallocate() }
        inputBuffer.deallocate()
        columns.deallocate()
    }

    /// The descriptor of a 150×150 RGB chip (`chip` holds 150·150·3 bytes, R, G, B per pixel),
    /// written into `output` (128 floats).
    public func describe(chip: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<Float>) {
        precondition(chip.count == Self.chipSize * Self.chipSize * 3 && output.count == Self.descriptorLength)
        // input_rgb_image_sized::to_tensor: planar, (value - mean) / 256.
        let plane = Self.chipSize * Self.chipSize
        let mean = weights.mean
        for i in 0..<plane {
            inputBuffer[i] = (Float(chip[3 * i]) - mean.red) / 256
            inputBuffer[plane + i] = (Float(chip[3 * i + 1]) - mean.green) / 256
            inputBuffer[2 * plane + i] = (Float(chip[3 * i + 2]) - mean.blue) / 256
        }
        var current: UnsafeMutablePointer<Float> = inputBuffer
        var shape = inputShape
        var tags: [(Shape, UnsafeMutablePointer<Float>)?] = [nil, nil, nil]
        for (index, layer) in weights.layers.enumerated() {
            let outShape = shapes[index]
            let out = outputIndex[index] >= 0 ? buffers[outputIndex[index]] : inputBuffer
            switch layer {
            case .tag(let id):
                tags[id] = (shape, current)
            case .skip(let id):
                (shape, current) = tags[id]!
                continue
            case .convolution(let filters, let channels, let size, let stride, let padding, let w, let b):
                convolve(current, shape, filters: filters, channels: channels, size: size, stride: stride,
                         padding: padding, weights: w, biases: b, out: out, outShape: outShape)
            case .affine(let gamma, let beta):
                let area = shape.rows * shape.columns
                for c in 0..<shape.channels {
                    let g = gamma[c], bb = beta[c]
                    let p = current + c * area
                    for i in 0..<area { p[i] = g * p[i] + bb }
                }
            case .relu:
                for i in 0..<shape.count where current[i] < 0 { current[i] = 0 }
            case .maxPool(let size, let stride):
                pool(current, shape, size: size, stride: stride, isMax: true, out: out, outShape: outShape)
            case .averagePool(let size, let stride):
                pool(current, shape, size: size, stride: stride, isMax: false, out: out, outShape: outShape)
            case .averagePoolEverything:
                pool(current, shape, size: shape.rows, stride: 1, isMax: false, out: out, outShape: outShape,
                     width: shape.columns)
            case .addPrevious(let id):
                let (otherShape, other) = tags[id]!
                add(current, shape, other, otherShape, out: out, outShape: outShape)
            case .fullyConnected(let inputs, let outputs, let w):
                // output[j] = sum_i x[i] * W[i][j]  (1×inputs · inputs×outputs)
                w.withUnsafeBufferPointer { fw_sgemm(1, Int32(outputs), Int32(inputs), current, $0.baseAddress, 0, out) }
            }
            if case .tag = layer { continue }
            if case .affine = layer { continue }
            if case .relu = layer { continue }
            current = out
            shape = outShape
        }
        for i in 0..<Self.descriptorLength { output[i] = current[i] }
    }

    /// A convenience that allocates: the descriptor of one chip.
    public func describe(chip: [UInt8]) -> FaceDescriptor {
        var values = [Float](repeating: 0, count: Self.descriptorLength)
        chip.withUnsafeBufferPointer { c in values.withUnsafeMutableBufferPointer { describe(chip: c, into: $0) } }
        return FaceDescriptor(values)
    }

    private func convolve(_ input: UnsafeMutablePointer<Float>, _ shape: Shape, filters: Int, channels: Int, size: Int,
                          stride: Int, padding: Int, weights w: [Float], biases: [Float],
                          out: UnsafeMutablePointer<Float>, outShape: Shape) {
        let outRows = outShape.rows, outCols = outShape.columns
        let area = outRows * outCols
        // im2col: row (c, ky, kx), column (oy, ox); zero where the window leaves the image.
        var row = 0
        for c in 0..<channels {
            let plane = input + c * shape.rows * shape.columns
            for ky in 0..<size {
                for kx in 0..<size {
                    let dst = columns + row * area
                    for oy in 0..<outRows {
                        let y = oy * stride + ky - padding
                        let line = dst + oy * outCols
                        if y < 0 || y >= shape.rows {
                            line.update(repeating: 0, count: outCols)
                            continue
                        }
                        let src = plane + y * shape.columns
                        if stride == 1 {
                            let x0 = kx - padding
                            for ox in 0..<outCols {
                                let x = ox + x0
                                line[ox] = (x >= 0 && x < shape.columns) ? src[x] : 0
                            }
                        } else {
                            for ox in 0..<outCols {
                                let x = ox * stride + kx - padding
                                line[ox] = (x >= 0 && x < shape.columns) ? src[x] : 0
                            }
                        }
                    }
                    row += 1
                }
            }
        }
        for f in 0..<filters {
            (out + f * area).update(repeating: biases[f], count: area)
        }
        w.withUnsafeBufferPointer {
            fw_sgemm(Int32(filters), Int32(area), Int32(channels * size * size), $0.baseAddress, columns, 1, out)
        }
    }

    private func pool(_ input: UnsafeMutablePointer<Float>, _ shape: Shape, size: Int, stride: Int, isMax: Bool,
                      out: UnsafeMutablePointer<Float>, outShape: Shape, width: Int? = nil) {
        let windowWidth = width ?? size
        let scale = 1 / Float(size * windowWidth)
        for c in 0..<shape.channels {
            let plane = input + c * shape.rows * shape.columns
            let dst = out + c * outShape.rows * outShape.columns
            for oy in 0..<outShape.rows {
                for ox in 0..<outShape.columns {
                    var acc: Float = isMax ? -.infinity : 0
                    for ky in 0..<size {
                        let line = plane + (oy * stride + ky) * shape.columns + ox * stride
                        for kx in 0..<windowWidth {
                            acc = isMax ? max(acc, line[kx]) : acc + line[kx]
                        }
                    }
                    dst[oy * outShape.columns + ox] = isMax ? acc : acc * scale
                }
            }
        }
    }

    /// dlib's `tt::add` with differing shapes: each output element is the sum of the inputs'
    /// elements at that index, a missing element counting as zero.
    private func add(_ a: UnsafeMutablePointer<Float>, _ aShape: Shape, _ b: UnsafeMutablePointer<Float>, _ bShape: Shape,
                     out: UnsafeMutablePointer<Float>, outShape: Shape) {
        for k in 0..<outShape.channels {
            for r in 0..<outShape.rows {
                for c in 0..<outShape.columns {
                    var v: Float = 0
                    if k < aShape.channels, r < aShape.rows, c < aShape.columns {
                        v += a[(k * aShape.rows + r) * aShape.columns + c]
                    }
                    if k < bShape.channels, r < bShape.rows, c < bShape.columns {
                        v += b[(k * bShape.rows + r) * bShape.columns + c]
                    }
                    out[(k * outShape.rows + r) * outShape.columns + c] = v
                }
            }
        }
    }
}

/// A structural problem found while laying out the network.
struct DlibFormatProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
