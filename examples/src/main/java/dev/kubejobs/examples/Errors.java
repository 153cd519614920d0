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
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.NoSuchJobException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/** Turns exceptions into the one-line messages and exit codes of the example programs. */
public final class Errors {
  /**
   * Exit code of a command that did its work and whose answer is a failure: the job failed or was
   * cancelled ({@code status}, {@code watch}), the check found something missing, the sweep could
   * not delete something.
   */
  public static final int FAILED = 1;

  /** Exit code of a configuration problem: no kubeconfig, a bad option value. */
  public static final int CONFIGURATION = 2;

  /** Exit code when the API server could not be reached. */
  public static final int UNAVAILABLE = 3;

  /**
   * Exit code of a command that could not do its work on a reachable cluster: no such job, a
   * request refused (a rejected submit, refused credentials, a missing permission), the operator's
   * CRD not served.
   */
  public static final int COMMAND_FAILED = 4;

  /**
   * The exit codes, one line each, as the help and the examples README state them.
   *
   * <p>One rule: 0 and 1 are answers (1: what was asked about failed), 2, 3 and 4 say the command
   * could not answer.
   */
  public static final String EXIT_CODES =
      "Exit codes: 0 done; 1 done, and the answer is a failure (status, watch: the job failed or"
          + " was cancelled; check: something missing; sweep: something not deleted);"
          + " 2 configuration or usage; 3 the API server cannot be reached;"
          + " 4 the command could not do its work (no such job, a refused request, the CRD not"
          + " served).";

  private Errors() {}

  /**
   * Returns what went wrong in one line, without a stack trace or a Java class name, worded for the
   * cause: an unknown host, a refused connection, a TLS failure, a time-out, refused credentials
   * (401), a missing permission (403), a job that is not there.
   *
   * @param e the exception
   * @return the message
   */
  public static String describe(Throwable e) {
    if (e instanceof CliException) {
      return oneLine(e.getMessage());
    }
    String transport = transport(e);
    if (transport != null) {
      return transport;
    }
    if (e instanceof JobRejectedException rejected
        && rejected.reason() == JobRejectedException.Reason.FORBIDDEN) {
      return oneLine(withoutClassNames(e.getMessage()))
          + (rejected.code() == 401
              ? "; the kubeconfig's token or certificate is wrong or expired: log in again"
                  + " (e.g. refresh it with your cloud provider's CLI)"
              : "; grant the Role of docs/rbac.yaml to this identity, or run 'check' to list"
                  + " every missing permission");
    }
    if (e instanceof NoSuchJobException gone && gone.executionId().isPresent()) {
      ExecutionId id = gone.executionId().get();
      return "no job "
          + id.name()
          + " in namespace "
          + id.namespace()
          + " ("
          + id.plural()
          + "."
          + id.group()
          + "): either it was never submitted with this namespace, operator and deployment"
          + " (check -n, --operator and --deployment; 'list' shows the deployment's jobs), or"
          + " its resource was deleted since: a cancel deletes it once the operator has stopped"
          + " the job, so a job you cancelled ends here, as cancelled; a sweep or someone else"
          + " may also have removed it (kubejobs keeps no record of a job past its resource)";
    }
    if (e instanceof KubeJobsException
        || (e instanceof IllegalArgumentException && e.getMessage() != null)) {
      return oneLine(withoutClassNames(e.getMessage()));
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return oneLine(
        withoutClassNames(
            root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName()));
  }

  /**
   * Returns the exit code for an exception.
   *
   * @param e the exception
   * @return the exception's own code for a {@link CliException}, {@link #UNAVAILABLE} when the API
   *     server could not be reached, else {@link #COMMAND_FAILED}
   */
  public static int exitCode(Throwable e) {
    if (e instanceof CliException cli) {
      return cli.exitCode();
    }
    if (e instanceof ApiUnavailableException || transport(e) != null) {
      return UNAVAILABLE;
    }
    return COMMAND_FAILED;
  }

  /** The message for a failure to reach the API server at all, or null when it was reached. */
  private static String transport(Throwable e) {
    String cannot = "cannot reach the Kubernetes API server: ";
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof UnknownHostException) {
        return cannot
            + "the host name "
            + quoted(t.getMessage())
            + " is unknown; check the server address of the kubeconfig's cluster, and the DNS"
            + " or VPN that resolves it";
      }
      if (t instanceof ConnectException) {
        return cannot
            + "connection refused"
            + address(t.getMessage())
            + "; is the cluster (or fake-cluster) running, and are the kubeconfig's server"
            + " address and port right?";
      }
      if (t instanceof SSLException) {
        return cannot
            + "the TLS handshake failed ("
            + oneLine(withoutClassNames(String.valueOf(t.getMessage())))
            + "); check that the kubeconfig's server is the cluster's https address and its"
            + " certificate-authority matches, or use http:// for a plain-HTTP server";
      }
      if (t instanceof SocketTimeoutException) {
        return cannot
            + "it did not answer in time; check the address, a proxy or firewall in between,"
            + " and retry later";
      }
    }
    return null;
  }

  private static String address(String message) {
    if (message == null) {
      return "";
    }
    Matcher m = Pattern.compile("(\\S+:\\d+)\\s*$").matcher(message.strip());
    return m.find() ? " at " + m.group(1).replaceFirst("^[^/]*/", "") : "";
  }

  private static String quoted(String s) {
    return s == null ? "(none)" : "'" + s + "'";
  }

  /** Removes Java class names ({@code java.net.ConnectException: }) from a message. */
  static String withoutClassNames(String s) {
    return s == null
        ? ""
        : s.replaceAll(
            "\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error):?\\s*", "");
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
