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
package dev.kubejobs.core;

import dev.kubejobs.core.spi.KubernetesNames;
import dev.kubejobs.core.spi.ResourceSnapshot;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Who a job's resource belongs to: its deterministic name, namespace, and the labels and
 * annotations that tie it to one job of one deployment.
 *
 * <p>The name is {@code <prefix>-<job id made DNS-1035 safe>}, at most 63 characters; when the job
 * id had to be changed to fit (characters replaced, upper case, too long) a hash of the raw id is
 * appended, so two job ids never share a name by accident and a retried submit lands on the same
 * name. Instances are immutable and thread safe.
 */
public final class JobIdentity {
  /** Label marking resources kubejobs manages; its value is {@value #MANAGED_BY_VALUE}. */
  public static final String LABEL_MANAGED_BY = "app.kubernetes.io/managed-by";

  /** The value of {@link #LABEL_MANAGED_BY}. */
  public static final String MANAGED_BY_VALUE = "kubejobs";

  /** Label holding the label-safe form of the job id. */
  public static final String LABEL_JOB_ID = "kubejobs.dev/job-id";

  /** Label holding the deployment name, which lets two deployments share a namespace. */
  public static final String LABEL_DEPLOYMENT = "kubejobs.dev/deployment";

  /** Annotation holding the raw job id. */
  public static final String ANNOTATION_JOB_ID = "kubejobs.dev/job-id";

  /** Annotation put by a cancel before the delete; its value is the time of the request. */
  public static final String ANNOTATION_CANCEL_REQUESTED = "kubejobs.dev/cancel-requested";

  /**
   * Annotation put by a status read before it deletes a job's resource to end it (the no-status
   * timeout): {@code <instant>;writer=<token>;status=<terminal status>;message=<text>}. Put with a
   * merge patch locked to the decided copy's resourceVersion, it decides the job's outcome for
   * every instance: a cancel that reads it reports the job already finished, and a cancel mark put
   * first makes its patch fail with 409.
   */
  public static final String ANNOTATION_ENDED = "kubejobs.dev/ended";

  /**
   * The annotation naming the submit that created or last adopted the resource (a writer token,
   * {@code <instance id>-<counter>}): a submit that gave up deletes what landed only while it still
   * names that submit, so it never deletes a resource another node's submit adopted meanwhile.
   */
  public static final String ANNOTATION_SUBMITTED_BY = "kubejobs.dev/submitted-by";

  private static final int MAX_NAME = 63;
  private static final int MAX_LABEL_VALUE = 63;
  private static final int HASH_LENGTH = 10;

  private final String jobId;
  private final String deployment;
  private final String namespace;
  private final String name;

  private JobIdentity(String jobId, String deployment, String namespace, String name) {
    this.jobId = jobId;
    this.deployment = deployment;
    this.namespace = namespace;
    this.name = name;
  }

  /**
   * Returns the identity of a job.
   *
   * @param prefix the name prefix, a DNS-1035 label of at most 20 characters, for example {@code
   *     kj}
   * @param deployment the deployment name, a label value of 1-63 characters
   * @param namespace the namespace the job runs in, a DNS-1123 label
   * @param jobId the caller's job id, any non-blank text of at most 1024 characters without
   *     unpaired surrogates
   * @return the identity
   * @throws IllegalArgumentException naming the setting, the rule and the value
   */
  public static JobIdentity of(String prefix, String deployment, String namespace, String jobId) {
    if (prefix == null || prefix.length() > 20 || !KubernetesNames.isDns1035Label(prefix)) {
      throw new IllegalArgumentException(
          "prefix must be a lower-case DNS-1035 label of at most 20 characters, but was "
              + quote(prefix));
    }
    requireDeployment(deployment);
    if (!KubernetesNames.isDns1123Label(namespace)) {
      throw new IllegalArgumentException(
          "namespace must be a lower-case DNS-1123 label of at most 63 characters, but was "
              + quote(namespace));
    }
    if (jobId == null || jobId.isBlank() || jobId.length() > 1024) {
      throw new IllegalArgumentException(
          "jobId must be non-blank text of at most 1024 characters, but was " + quote(jobId));
    }
    int unpaired = unpairedSurrogate(jobId);
    if (unpaired >= 0) {
      // It would be stored as '?' (annotations are UTF-8), so a second submit would not match.
      throw new IllegalArgumentException(
          "jobId must be valid Unicode text, but has an unpaired surrogate (U+"
              + Integer.toHexString(jobId.charAt(unpaired)).toUpperCase(java.util.Locale.ROOT)
              + ") at index "
              + unpaired);
    }
    return new JobIdentity(jobId, deployment, namespace, nameFor(prefix, jobId));
  }

  /**
   * Checks a deployment name.
   *
   * @param deployment the deployment name
   * @return the deployment name
   * @throws IllegalArgumentException if it is not a label value of 1-63 characters
   */
  public static String requireDeployment(String deployment) {
    if (deployment == null
        || deployment.isEmpty()
        || deployment.length() > MAX_LABEL_VALUE
        || !KubernetesNames.isLabelValue(deployment)) {
      throw new IllegalArgumentException(
          "deployment must be 1-63 letters, digits, '-', '_' or '.', starting and ending with a"
              + " letter or digit, but was "
              + quote(deployment));
    }
    return deployment;
  }

  /**
   * Returns the label-safe form of a job id, as written in {@link #LABEL_JOB_ID}.
   *
   * @param jobId the raw job id
   * @return the id itself when it is a valid label value, else a shortened, hashed form
   */
  public static String labelValueOf(String jobId) {
    Objects.requireNonNull(jobId, "jobId");
    if (KubernetesNames.isLabelValue(jobId)) {
      return jobId;
    }
    String safe = jobId.replaceAll("[^A-Za-z0-9_.-]", "-");
    String hash = hash(jobId);
    int keep = MAX_LABEL_VALUE - HASH_LENGTH - 1;
    safe = safe.length() > keep ? safe.substring(0, keep) : safe;
    safe = safe.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
    return safe.isEmpty() ? hash : safe + "-" + hash;
  }

  private static String nameFor(String prefix, String jobId) {
    String lower = jobId.toLowerCase(Locale.ROOT);
    String safe = lower.replaceAll("[^a-z0-9-]+", "-").replaceAll("-{2,}", "-");
    safe = safe.replaceAll("^-+", "").replaceAll("-+$", "");
    String plain = safe.isEmpty() ? prefix : prefix + "-" + safe;
    if (safe.equals(jobId) && plain.length() <= MAX_NAME) {
      return plain;
    }
    String suffix = "-" + hash(jobId);
    String head =
        plain.length() > MAX_NAME - suffix.length()
            ? plain.substring(0, MAX_NAME - suffix.length())
            : plain;
    return head.replaceAll("-+$", "") + suffix;
  }

  private static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : digest) {
        hex.append(String.format("%02x", b));
      }
      return hex.substring(0, HASH_LENGTH);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }

  /**
   * Returns the caller's raw job id.
   *
   * @return the job id
   */
  public String jobId() {
    return jobId;
  }

  /**
   * Returns the deployment name.
   *
   * @return the deployment
   */
  public String deployment() {
    return deployment;
  }

  /**
   * Returns the namespace.
   *
   * @return the namespace
   */
  public String namespace() {
    return namespace;
  }

  /**
   * Returns the resource name.
   *
   * @return a DNS-1035 label of at most 63 characters
   */
  public String name() {
    return name;
  }

  /**
   * Returns the labels kubejobs owns on the job's resource.
   *
   * @return managed-by, job id (label-safe) and deployment, in that order
   */
  public Map<String, String> labels() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(LABEL_MANAGED_BY, MANAGED_BY_VALUE);
    labels.put(LABEL_JOB_ID, labelValueOf(jobId));
    labels.put(LABEL_DEPLOYMENT, deployment);
    return labels;
  }

  /**
   * Returns the annotations kubejobs owns on the job's resource at creation.
   *
   * @return the raw job id annotation
   */
  public Map<String, String> annotations() {
    return Map.of(ANNOTATION_JOB_ID, jobId);
  }

  /**
   * Returns whether a resource belongs to this identity's job and deployment.
   *
   * @param resource the resource
   * @return true if the job id annotation and deployment label match
   */
  public boolean owns(ResourceSnapshot resource) {
    return jobId.equals(resource.annotation(ANNOTATION_JOB_ID).orElse(null))
        && deployment.equals(resource.label(LABEL_DEPLOYMENT).orElse(null))
        && MANAGED_BY_VALUE.equals(resource.label(LABEL_MANAGED_BY).orElse(null));
  }

  @Override
  public String toString() {
    return "JobIdentity{jobId="
        + jobId
        + ", deployment="
        + deployment
        + ", "
        + namespace
        + "/"
        + name
        + "}";
  }

  /** The index of the first unpaired surrogate, or -1 when the text is valid UTF-16. */
  private static int unpairedSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  private static String quote(String value) {
    return value == null ? "null" : "'" + value + "'";
  }
}
