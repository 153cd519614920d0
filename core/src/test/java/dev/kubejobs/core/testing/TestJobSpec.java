package dev.kubejobs.core.testing;

import java.util.Map;

/**
 * The spec of a made-up test job.
 *
 * @param namespace where it runs
 * @param image the image
 * @param labels extra labels for the resource
 */
public record TestJobSpec(String namespace, String image, Map<String, String> labels) {
  /** A spec in a namespace with no extra labels. */
  public static TestJobSpec in(String namespace) {
    return new TestJobSpec(namespace, "busybox", Map.of());
  }
}
