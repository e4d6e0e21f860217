import CDeflate
import CZlib

/// The `gzip` content coding (RFC 1952): one-shot compression of a response body through libdeflate, and
/// decompression through zlib for the tests and any client that checks bytes. Pure functions over byte arrays;
/// thread-safe (no shared state).
enum Gzip {
    /// `bytes` compressed as one gzip member (no file name, modification time 0, so the same input always gives the same
    /// bytes). `level` 1…12 (12, the default: smallest output, a fetch body 21 bytes smaller than zlib's and `gzip -9`'s
    /// 1,100 in the http bench, which is what brings lookd's gzip answer under nginx's bytes on the wire; about 0.3 ms
    /// for a 3 KB body, computed once per response on a worker).
    static func compress(_ bytes: [UInt8], level: Int = 12) -> [UInt8] {
        precondition((1...12).contains(level), "gzip level 1…12")
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else { fatalError("out of memory allocating a gzip compressor") }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let written = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
            }
        }
        precondition(written > 0, "libdeflate did not fit within its own bound")
        output.removeSubrange(written...)
        return output
    }

    /// Decompresses one gzip member. Throws `CompressionError.malformed` when `bytes` is not exactly one valid member
    /// (bad header, checksum or length, truncated, bytes after it), `.tooLarge` when its output would exceed `limit`.
    static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
        var stream = z_stream()
        guard lookd_inflate_init_gzip(&stream) == Z_OK else { throw CompressionError.malformed("out of memory") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        var input = bytes
        return try input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += chunk[0..<(chunk.count - Int(stream.avail_out))]
                guard output.count <= limit else { throw CompressionError.tooLarge(limit: limit) }
                switch status {
                case Z_STREAM_END:
                    guard stream.avail_in == 0 else { throw CompressionError.malformed("bytes after the end of the gzip member") }
                    return output
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0: throw CompressionError.malformed("the gzip stream is truncated")
                default: throw CompressionError.malformed("not a valid gzip stream")
                }
            }
        }
    }
}
