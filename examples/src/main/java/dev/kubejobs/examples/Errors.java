/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.kubejobs.examples;

import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.KubeJobsException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/** Turns exceptions into the one-line messages and exit codes of the example programs. */
public final class Errors {
  /** Exit code of a job that failed or a check that found problems. */
  public static final int FAILED = 1;

  /** Exit code of a configuration problem: no kubeconfig, a bad option value. */
  public static final int CONFIGURATION = 2;

  /** Exit code when the API server could not be reached. */
  public static final int UNAVAILABLE = 3;

  private Errors() {}

  /**
   * Returns what went wrong in one line, without a stack trace.
   *
   * @param e the exception
   * @return the message
   */
  public static String describe(Throwable e) {
    if (e instanceof CliException || e instanceof KubeJobsException) {
      return oneLine(e.getMessage());
    }
    Throwable io = ioCause(e);
    if (io != null) {
      return "cannot reach the Kubernetes API server: " + oneLine(io.toString());
    }
    if (e instanceof IllegalArgumentException && e.getMessage() != null) {
      return oneLine(e.getMessage());
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return oneLine(root.getMessage() != null ? root.getMessage() : root.toString());
  }

  /**
   * Returns the exit code for an exception.
   *
   * @param e the exception
   * @return {@link #CONFIGURATION}, {@link #UNAVAILABLE} or {@link #FAILED}
   */
  public static int exitCode(Throwable e) {
    if (e instanceof CliException cli) {
      return cli.exitCode();
    }
    if (e instanceof ApiUnavailableException || ioCause(e) != null) {
      return UNAVAILABLE;
    }
    return FAILED;
  }

  private static Throwable ioCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof SocketTimeoutException
          || t instanceof UnknownHostException) {
        return t;
      }
    }
    return null;
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /** A failure of the example programs themselves, with its exit code. */
  public static final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    /**
     * Creates the exception.
     *
     * @param exitCode the exit code
     * @param message the one-line message, saying what to do
     */
    public CliException(int exitCode, String message) {
      super(message);
      this.exitCode = exitCode;
    }

    /**
     * Returns the exit code.
     *
     * @return the exit code
     */
    public int exitCode() {
      return exitCode;
    }
  }
}
