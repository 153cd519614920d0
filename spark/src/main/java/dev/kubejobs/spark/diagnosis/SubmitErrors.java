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
package dev.kubejobs.spark.diagnosis;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the line that matters in a submission error: spark-submit's stderr as the Kubeflow operator
 * wraps it ({@code "failed to run spark-submit: failed to run spark-submit: <stderr>"}), or the
 * Apache operator's {@code "Failed to request driver from scheduler backend. StackTrace: <stack
 * trace>"}. Both carry the API server's refusal as fabric8's {@code KubernetesClientException}
 * writes it: {@code "Failure executing: POST at: <url>. Message: <status message>. Received status:
 * Status(...)."}.
 */
final class SubmitErrors {

  /** What kind of refusal was found. */
  enum Kind {
    QUOTA,
    WEBHOOK,
    RBAC,
    OTHER
  }

  /** The line found and its kind; {@code quotaName} only for {@link Kind#QUOTA}. */
  static final class Finding {
    final Kind kind;
    final String line;
    final String detail;

    Finding(Kind kind, String line, String detail) {
      this.kind = kind;
      this.line = line;
      this.detail = detail;
    }
  }

  // The API server's ResourceQuota admission: "exceeded quota: %s, requested: %s, used: %s,
  // limited: %s" (kubernetes plugin/pkg/admission/resourcequota/controller.go), prefixed by
  // NewForbidden's "<resource> \"<name>\" is forbidden: ".
  private static final Pattern QUOTA =
      Pattern.compile(
          "((?:[\\w.\\-]+ \"[^\"]*\" is forbidden: )?exceeded quota: ([^,\\n]+),[^\\n]*?)"
              + "(?:\\. Received status|\\.?$)",
          Pattern.MULTILINE);
  // A validating/mutating webhook: "admission webhook \"%s\" denied the request: %s"
  // (kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go).
  private static final Pattern WEBHOOK =
      Pattern.compile(
          "(admission webhook \"([^\"]+)\" denied the request(?::[^\\n]*?)?)"
              + "(?:\\. Received status|\\.?$)",
          Pattern.MULTILINE);
  // RBAC: "%s is forbidden: User \"%s\" cannot %s resource \"%s\" in API group \"%s\" in the
  // namespace \"%s\"" (kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
  // responsewriters/errors.go, forbiddenMessage).
  private static final Pattern RBAC =
      Pattern.compile(
          "((?:[\\w.\\-]+ \"[^\"]*\" |[\\w.\\-]+ )?is forbidden: User \"([^\"]+)\" cannot [^\\n]*?)"
              + "(?:: [^\\n]*?)?(?:\\. Received status|\\.?$)",
          Pattern.MULTILINE);
  private static final Pattern PREFIX =
      Pattern.compile("^(?:\\s*failed to run spark-submit:\\s*)+", Pattern.CASE_INSENSITIVE);

  private SubmitErrors() {}

  static Optional<Finding> find(String message) {
    if (message == null || message.isBlank()) {
      return Optional.empty();
    }
    Matcher m = QUOTA.matcher(message);
    if (m.find()) {
      return Optional.of(new Finding(Kind.QUOTA, m.group(1).strip(), m.group(2).strip()));
    }
    m = WEBHOOK.matcher(message);
    if (m.find()) {
      return Optional.of(new Finding(Kind.WEBHOOK, m.group(1).strip(), m.group(2)));
    }
    m = RBAC.matcher(message);
    if (m.find()) {
      return Optional.of(new Finding(Kind.RBAC, m.group(1).strip(), m.group(2)));
    }
    String stripped = PREFIX.matcher(message.strip()).replaceFirst("");
    String exception = null;
    for (String line : stripped.split("\\R")) {
      String l = line.strip();
      if (l.startsWith("Exception in thread") || l.startsWith("Error:") || l.startsWith("ERROR")) {
        exception = l;
        break;
      }
      if (exception == null && !l.isEmpty() && !l.startsWith("at ") && l.contains("Exception")) {
        exception = l;
      }
    }
    if (exception == null) {
      for (String line : stripped.split("\\R")) {
        if (!line.isBlank()) {
          exception = line.strip();
          break;
        }
      }
    }
    return exception == null
        ? Optional.empty()
        : Optional.of(new Finding(Kind.OTHER, exception, ""));
  }

  static String advice(Finding f, String namespace) {
    switch (f.kind) {
      case QUOTA:
        return " Free quota in namespace "
            + namespace
            + " or raise ResourceQuota "
            + f.detail
            + ", or lower the job's requests.";
      case WEBHOOK:
        return " Change the job so that webhook " + f.detail + " admits it, or ask its owners.";
      case RBAC:
        return " Grant " + f.detail + " that permission (a Role and RoleBinding).";
      default:
        return " Fix the job's spec or the cluster as the error says, then submit it again.";
    }
  }
}
