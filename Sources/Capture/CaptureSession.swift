/// An open, streaming device: its negotiated format and its memory-mapped buffers, all queued
/// at the start. `close()` undoes everything, whatever state the device is in.
final class CaptureSession {
    let device: any VideoDevice
    let capabilities: DeviceCapabilities
    let format: CaptureFormat
    /// The mapped buffers, by buffer index.
    private(set) var buffers: [UnsafeRawBufferPointer] = []

    private init(device: any VideoDevice, capabilities: DeviceCapabilities, format: CaptureFormat) {
        self.device = device
        self.capabilities = capabilities
        self.format = format
    }

    /// Checks the device can stream video, negotiates the format, maps `settings.buffers`
    /// buffers, queues them and starts streaming. On failure the device is closed.
    static func start(_ device: any VideoDevice, settings: CameraSettings) throws -> CaptureSession {
        let session: CaptureSession
        do {
            let capabilities = try device.capabilities()
            guard capabilities.isStreamingCapture else {
                throw CameraError.notACaptureDevice(device: settings.device, card: capabilities.card,
                                                    capabilities: capabilities.names)
            }
            let format = try FormatNegotiation.negotiate(device, settings: settings)
            session = CaptureSession(device: device, capabilities: capabilities, format: format)
        } catch {
            device.close()
            throw error
        }
        do {
            let count = try device.requestBuffers(max(settings.buffers, 2))
            guard count > 0 else { throw CameraError.unusable(device: settings.device, problem: "the driver gave no buffers") }
            for index in 0..<count {
                session.buffers.append(try device.map(device.queryBuffer(index)))
            }
            for index in 0..<count {
                try device.queue(index)
            }
            try device.streamOn()
        } catch {
            session.close()
            throw error
        }
        return session
    }

    /// Stops streaming, unmaps and frees the buffers and closes the device. Errors are ignored:
    /// an unplugged device fails every call, and there is nothing left to do about it.
    func close() {
        try? device.streamOff()
        for memory in buffers { device.unmap(memory) }
        if !buffers.isEmpty { _ = try? device.requestBuffers(0) }
        buffers = []
        device.close()
    }
}
