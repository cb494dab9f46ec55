import DlibFormat
import Foundation

/// The trained values of dlib's face recognition ResNet, read from its serialized `anet_type`
/// (`dlib/dnn/core.h`, `layers.h`, `input.h`, `loss.h`): one entry per node, input first.
struct NetworkWeights {
    /// What one node carries.
    enum Layer {
        /// Filters (`filters × channels × size × size`, dlib's order), then biases; padding from the file.
        case convolution(filters: Int, channels: Int, size: Int, stride: Int, padding: Int, weights: [Float], biases: [Float])
        /// Per-channel `y = gamma·x + beta`.
        case affine(gamma: [Float], beta: [Float])
        case relu
        case maxPool(size: Int, stride: Int)
        case averagePool(size: Int, stride: Int)
        case averagePoolEverything
        case addPrevious(tag: Int)
        /// Weights `inputs × outputs`, row-major, as dlib stores them.
        case fullyConnected(inputs: Int, outputs: Int, weights: [Float])
        case tag(Int)
        case skip(Int)
    }

    /// The input layer's per-channel means (dlib: 122.782, 117.001, 104.298).
    var mean: (red: Float, green: Float, blue: Float)
    var layers: [Layer]

    /// Parses the model file's bytes against `NetworkNode.faceRecognitionResNet`.
    init(bytes: UnsafeRawBufferPointer) throws {
        var reader = DlibDeserializer(bytes)
        let nodes = NetworkNode.faceRecognitionResNet
        try Self.expectVersion(&reader, 1...1, "add_loss_layer")
        let loss = try reader.readString()
        switch loss {
        case "loss_metric_": break
        case "loss_metric_2": _ = try reader.readFloat(); _ = try reader.readFloat()
        default: throw DlibDeserializer.Failure.malformed("loss layer '\(loss)', expected loss_metric_")
        }
        // Descend: every wrapper's version, outermost first, down to the layer on the input.
        var versions = [Int64](repeating: 0, count: nodes.count)
        for index in stride(from: nodes.count - 1, to: 0, by: -1) {
            if nodes[index].isMarker {
                try Self.expectVersion(&reader, 1...1, "tag/skip layer")
            } else {
                versions[index] = try Self.expectVersion(&reader, 1...2, "add_layer")
            }
        }
        let inputVersion = try Self.expectVersion(&reader, 2...3, "input add_layer")
        let input = try reader.readString()
        guard input == "input_rgb_image_sized" || input == "input_rgb_image" else {
            throw DlibDeserializer.Failure.malformed("input layer '\(input)', expected input_rgb_image_sized")
        }
        mean = (try reader.readFloat(), try reader.readFloat(), try reader.readFloat())
        if input == "input_rgb_image_sized" {
            let rows = try reader.readUnsigned(), columns = try reader.readUnsigned()
            guard rows == 150, columns == 150 else {
                throw DlibDeserializer.Failure.malformed("input size \(rows)×\(columns), expected 150×150")
            }
        }
        var layers: [Layer] = []
        var channels = 3
        layers.append(try Self.readLayer(&reader, node: nodes[0], channels: &channels))
        try Self.skipAddLayerState(&reader, tensors: 3)
        if inputVersion >= 3 { _ = try reader.readSigned() }
        // Ascend: each wrapper's layer details and state, innermost first.
        var tagChannels: [Int: Int] = [:]
        for index in 1..<nodes.count {
            let node = nodes[index]
            switch node {
            case .tag(let id):
                tagChannels[id] = channels
                layers.append(.tag(id))
            case .skip(let id):
                guard let stored = tagChannels[id] else { throw DlibDeserializer.Failure.malformed("skip to unset tag \(id)") }
                channels = stored
                layers.append(.skip(id))
            default:
                if case .addPrevious(let id) = node {
                    channels = max(channels, tagChannels[id] ?? 0)
                }
                layers.append(try Self.readLayer(&reader, node: node, channels: &channels))
                try Self.skipAddLayerState(&reader, tensors: versions[index] == 2 ? 3 : 2)
            }
        }
        guard reader.isAtEnd else {
            throw DlibDeserializer.Failure.malformed("\(bytes.count - reader.offset) unexpected bytes after the network")
        }
        self.layers = layers
    }

    @discardableResult
    private static func expectVersion(_ reader: inout DlibDeserializer, _ allowed: ClosedRange<Int64>, _ what: String) throws -> Int64 {
        let start = reader.offset
        let version = try reader.readSigned()
        guard allowed.contains(version) else {
            throw DlibDeserializer.Failure.malformed("\(what) version \(version) at offset \(start)")
        }
        return version
    }

    /// After a layer's details: three bools, then x_grad, cached_output (and params_grad or grad_final).
    private static func skipAddLayerState(_ reader: inout DlibDeserializer, tensors: Int) throws {
        for _ in 0..<3 { _ = try reader.readBool() }
        for _ in 0..<tensors { _ = try reader.readTensor() }
    }

    /// An `alias_tensor` header (version 1, four dimensions): returns its element count.
    private static func readAliasTensor(_ reader: inout DlibDeserializer) throws -> Int {
        try expectVersion(&reader, 1...1, "alias_tensor")
        var count = 1
        for _ in 0..<4 {
            let dimension = try reader.readSigned()
            guard dimension >= 0, dimension <= Int64(Int32.max) else { throw DlibDeserializer.Failure.malformed("alias tensor dimension \(dimension)") }
            let (product, overflow) = count.multipliedReportingOverflow(by: Int(dimension))
            guard !overflow else { throw DlibDeserializer.Failure.malformed("alias tensor size overflows") }
            count = product
        }
        return count
    }

    private static func readLayer(_ reader: inout DlibDeserializer, node: NetworkNode, channels: inout Int) throws -> Layer {
        let version = try reader.readString()
        func expect(_ names: Set<String>) throws {
            guard names.contains(version) else {
                throw DlibDeserializer.Failure.malformed("layer '\(version)' where \(node) was expected (offset \(reader.offset))")
            }
        }
        switch node {
        case .convolution(let filters, let size, let stride):
            try expect(["con_4", "con_5", "con_6"])
            let params = try reader.readTensor()
            let numFilters = try reader.readSigned()
            let nr = try reader.readSigned(), nc = try reader.readSigned()
            let strideY = try reader.readSigned(), strideX = try reader.readSigned()
            let padY = try reader.readSigned(), padX = try reader.readSigned()
            let filterCount = try readAliasTensor(&reader), biasCount = try readAliasTensor(&reader)
            for _ in 0..<4 { _ = try reader.readDouble() }
            var useBias = true
            if version != "con_4" { useBias = try reader.readBool() }
            if version == "con_6" { _ = try reader.readBool() }
            guard numFilters == filters, nr == size, nc == size, strideY == stride, strideX == stride,
                  padY == padX, padY >= 0, padY < size else {
                throw DlibDeserializer.Failure.malformed("convolution \(numFilters) \(nr)×\(nc)/\(strideY) pad \(padY) where \(node) was expected")
            }
            let weightCount = filters * channels * size * size
            guard filterCount == weightCount, biasCount == (useBias ? filters : 0),
                  params.values.count == weightCount + biasCount else {
                throw DlibDeserializer.Failure.malformed("convolution holds \(params.values.count) values, expected \(weightCount) + \(filters)")
            }
            let weights = Array(params.values[0..<weightCount])
            let biases = useBias ? Array(params.values[weightCount...]) : [Float](repeating: 0, count: filters)
            defer { channels = filters }
            return .convolution(filters: filters, channels: channels, size: size, stride: stride, padding: Int(padY),
                                weights: weights, biases: biases)
        case .affine:
            if version == "bn_con2" {
                let params = try reader.readTensor()
                _ = try readAliasTensor(&reader); _ = try readAliasTensor(&reader)
                _ = try reader.readTensor(); _ = try reader.readTensor()
                let runningMeans = try reader.readTensor(), runningVariances = try reader.readTensor()
                _ = try reader.readUnsigned(); _ = try reader.readUnsigned()
                for _ in 0..<4 { _ = try reader.readDouble() }
                let eps = Float(try reader.readDouble())
                guard params.values.count == 2 * channels, runningMeans.values.count == channels,
                      runningVariances.values.count == channels else {
                    throw DlibDeserializer.Failure.malformed("batch norm sizes do not match \(channels) channels")
                }
                // affine_(const bn_&): g = gamma / sqrt(var + eps), b = beta - g * mean, in float.
                var gamma = [Float](repeating: 0, count: channels), beta = gamma
                for c in 0..<channels {
                    gamma[c] = params.values[c] / (runningVariances.values[c] + eps).squareRoot()
                    beta[c] = params.values[channels + c] - gamma[c] * runningMeans.values[c]
                }
                return .affine(gamma: gamma, beta: beta)
            }
            try expect(["affine_", "affine_2"])
            let params = try reader.readTensor()
            _ = try readAliasTensor(&reader); _ = try readAliasTensor(&reader)
            _ = try reader.readSigned()
            if version == "affine_2" {
                if try reader.readBool() { throw DlibDeserializer.Failure.malformed("a disabled affine layer") }
            }
            guard params.values.count == 2 * channels else {
                throw DlibDeserializer.Failure.malformed("affine layer holds \(params.values.count) values for \(channels) channels")
            }
            return .affine(gamma: Array(params.values[0..<channels]), beta: Array(params.values[channels...]))
        case .relu:
            try expect(["relu_", "relu_2"])
            if version == "relu_2", try reader.readBool() { throw DlibDeserializer.Failure.malformed("a disabled relu layer") }
            return .relu
        case .maxPool(let size, let stride), .averagePool(let size, let stride):
            let isMax: Bool
            if case .maxPool = node { isMax = true } else { isMax = false }
            try expect([isMax ? "max_pool_2" : "avg_pool_2"])
            let nr = try reader.readSigned(), nc = try reader.readSigned()
            let sy = try reader.readSigned(), sx = try reader.readSigned()
            let py = try reader.readSigned(), px = try reader.readSigned()
            guard nr == size, nc == size, sy == stride, sx == stride, py == 0, px == 0 else {
                throw DlibDeserializer.Failure.malformed("pooling \(nr)×\(nc)/\(sy) pad \(py) where \(node) was expected")
            }
            return isMax ? .maxPool(size: size, stride: stride) : .averagePool(size: size, stride: stride)
        case .averagePoolEverything:
            try expect(["avg_pool_2"])
            let nr = try reader.readSigned(), nc = try reader.readSigned()
            let sy = try reader.readSigned(), sx = try reader.readSigned()
            let py = try reader.readSigned(), px = try reader.readSigned()
            guard nr == 0, nc == 0, sy == 1, sx == 1, py == 0, px == 0 else {
                throw DlibDeserializer.Failure.malformed("pooling \(nr)×\(nc) where avg_pool_everything was expected")
            }
            return .averagePoolEverything
        case .addPrevious(let tag):
            try expect(["add_prev_"])
            return .addPrevious(tag: tag)
        case .fullyConnected(let outputs):
            try expect(["fc_2", "fc_3"])
            let numOutputs = try reader.readUnsigned(), numInputs = try reader.readUnsigned()
            let params = try reader.readTensor()
            _ = try readAliasTensor(&reader); _ = try readAliasTensor(&reader)
            let biasMode = try reader.readSigned()
            for _ in 0..<4 { _ = try reader.readDouble() }
            if version == "fc_3" { _ = try reader.readBool() }
            guard numOutputs == UInt64(outputs), numInputs == UInt64(channels), biasMode == 1,
                  params.values.count == outputs * channels else {
                throw DlibDeserializer.Failure.malformed("fully connected \(numInputs)→\(numOutputs) (bias mode \(biasMode)) where \(channels)→\(outputs) without bias was expected")
            }
            defer { channels = outputs }
            return .fullyConnected(inputs: channels, outputs: outputs, weights: params.values)
        case .tag, .skip:
            throw DlibDeserializer.Failure.malformed("marker nodes carry no details")
        }
    }
}
