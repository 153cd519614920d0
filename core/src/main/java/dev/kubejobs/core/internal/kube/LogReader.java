package dev.kubejobs.core.internal.kube;

import java.io.IOException;
import java.io.InputStream;

/**
 * Consumes a pod log while the answer is open; the gateway closes the stream afterwards.
 *
 * @param <T> what the reader makes of the log
 */
@FunctionalInterface
public interface LogReader<T> {
  /**
   * Reads the log.
   *
   * @param log the log bytes, UTF-8; empty for an empty log
   * @return the result
   * @throws IOException when reading fails
   */
  T read(InputStream log) throws IOException;
}
