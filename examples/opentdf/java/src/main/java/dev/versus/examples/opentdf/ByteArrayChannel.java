package dev.versus.examples.opentdf;

import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only {@link SeekableByteChannel} over a byte array: {@code TDF.loadTDF} reads a TDF from
 * a channel, and the benchmark keeps each TDF in memory so that no file I/O is timed.
 */
final class ByteArrayChannel implements SeekableByteChannel {
  private final byte[] data;
  private int position;
  private boolean open = true;

  ByteArrayChannel(byte[] data) {
    this.data = data;
  }

  @Override
  public int read(ByteBuffer dst) {
    if (position >= data.length) {
      return -1;
    }
    int n = Math.min(dst.remaining(), data.length - position);
    dst.put(data, position, n);
    position += n;
    return n;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) {
    position = (int) Math.min(newPosition, data.length);
    return this;
  }

  @Override
  public long size() {
    return data.length;
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
  }
}
