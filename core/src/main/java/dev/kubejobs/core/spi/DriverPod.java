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
package dev.kubejobs.core.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * What is known of a job's driver pod when its status is mapped: not looked up, looked up and
 * absent, found, or not available (for example the service account may not read pods).
 *
 * <p>Instances are immutable and thread safe.
 */
public final class DriverPod {
  /** How the driver pod was (or was not) looked up. */
  public enum Lookup {
    /** Nobody looked for the pod; a mapper that needs it says so. */
    NOT_LOOKED_UP,
    /** The pod was looked up and does not exist. */
    ABSENT,
    /** The pod was found; {@link #pod()} holds it. */
    FOUND,
    /** The lookup failed for good (for example 403); {@link #reason()} says why. */
    UNAVAILABLE
  }

  private static final DriverPod NOT_LOOKED_UP = new DriverPod(Lookup.NOT_LOOKED_UP, null, "");
  private static final DriverPod ABSENT = new DriverPod(Lookup.ABSENT, null, "");

  private final Lookup lookup;
  private final ResourceSnapshot pod;
  private final String reason;

  private DriverPod(Lookup lookup, ResourceSnapshot pod, String reason) {
    this.lookup = lookup;
    this.pod = pod;
    this.reason = reason;
  }

  /**
   * Returns the value for a pod nobody looked up.
   *
   * @return the shared instance
   */
  public static DriverPod notLookedUp() {
    return NOT_LOOKED_UP;
  }

  /**
   * Returns the value for a pod that was looked up and does not exist.
   *
   * @return the shared instance
   */
  public static DriverPod absent() {
    return ABSENT;
  }

  /**
   * Returns the value for a found pod.
   *
   * @param pod the pod
   * @return the value
   */
  public static DriverPod found(ResourceSnapshot pod) {
    return new DriverPod(Lookup.FOUND, Objects.requireNonNull(pod, "pod"), "");
  }

  /**
   * Returns the value for a pod that cannot be looked up.
   *
   * @param reason why, for example the missing permission
   * @return the value
   */
  public static DriverPod unavailable(String reason) {
    return new DriverPod(Lookup.UNAVAILABLE, null, Objects.requireNonNull(reason, "reason"));
  }

  /**
   * Returns how the pod was looked up.
   *
   * @return the lookup outcome
   */
  public Lookup lookup() {
    return lookup;
  }

  /**
   * Returns the pod when it was found.
   *
   * @return the pod, or empty
   */
  public Optional<ResourceSnapshot> pod() {
    return Optional.ofNullable(pod);
  }

  /**
   * Returns why the pod is unavailable.
   *
   * @return the reason, or an empty string unless {@link Lookup#UNAVAILABLE}
   */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return "DriverPod{" + lookup + (pod != null ? " " + pod : "") + reason + "}";
  }
}
