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

import dev.kubejobs.core.diagnosis.Cause;
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
    QUOTA(Cause.QUOTA_EXCEEDED),
    WEBHOOK(Cause.ADMISSION_DENIED),
    WEBHOOK_UNREACHABLE(Cause.ADMISSION_WEBHOOK_UNREACHABLE),
    RBAC(Cause.FORBIDDEN_BY_RBAC),
    OTHER(Cause.SUBMISSION_FAILED);

    final Cause cause;

    Kind(Cause cause) {
      this.cause = cause;
    }
  }

  /**
   * The line found and its kind; {@code detail} names the quota, the webhook or the user, {@code
   * action} is RBAC's {@code "<verb> resource \"<resource>\""}, else empty.
   */
  static final class Finding {
    final Kind kind;
    final String line;
    final String detail;
    final String action;

    Finding(Kind kind, String line, String detail) {
      this(kind, line, detail, "");
    }

    Finding(Kind kind, String line, String detail, String action) {
      this.kind = kind;
      this.line = line;
      this.detail = detail;
      this.action = action;
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
  // An admission webhook that could not be called, failure policy Fail: ErrCallingWebhook's
  // "failed calling webhook %q: %v" (kubernetes staging/src/k8s.io/apiserver/pkg/util/webhook/
  // error.go), its reason "failed to call webhook: %w" (.../webhook/validating/dispatcher.go),
  // wrapped by NewInternalError's "Internal error occurred: %v".
  private static final Pattern WEBHOOK_UNREACHABLE =
      Pattern.compile(
          "((?:Internal error occurred: )?failed calling webhook \"([^\"]+)\"[^\n]*?)"
              + "(?:\\. Received status|\\.?$)",
          Pattern.MULTILINE);
  private static final Pattern RBAC_ACTION =
      Pattern.compile("cannot (\\S+) resource \"([^\"]*)\"(?: in API group \"([^\"]*)\")?");
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
    m = WEBHOOK_UNREACHABLE.matcher(message);
    if (m.find()) {
      return Optional.of(new Finding(Kind.WEBHOOK_UNREACHABLE, m.group(1).strip(), m.group(2)));
    }
    m = RBAC.matcher(message);
    if (m.find()) {
      Matcher action = RBAC_ACTION.matcher(m.group(1));
      String what = "";
      if (action.find()) {
        String group = action.group(3) == null ? "" : action.group(3);
        what = action.group(1) + " " + action.group(2) + (group.isEmpty() ? "" : "." + group);
      }
      return Optional.of(new Finding(Kind.RBAC, m.group(1).strip(), m.group(2), what));
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
        return " ResourceQuota "
            + f.detail
            + " in namespace "
            + namespace
            + " is used up: submit again once other pods there have ended, or raise the quota,"
            + " or lower the job's requests.";
      case WEBHOOK:
        return " Admission webhook "
            + f.detail
            + " refuses the job by policy and will refuse it again: change the job so that the"
            + " policy admits it, or ask the webhook's owners.";
      case WEBHOOK_UNREACHABLE:
        return " Admission webhook "
            + f.detail
            + " could not be called: the cluster's fault, not the job's; submit again later and"
            + " tell the team that runs the webhook.";
      case RBAC:
        return " Grant "
            + f.detail
            + (f.action.isEmpty() ? " that permission" : " the permission to " + f.action)
            + " in namespace "
            + namespace
            + " (a Role and RoleBinding).";
      default:
        return " Fix the job's spec or the cluster as the error says, then submit it again.";
    }
  }
}
