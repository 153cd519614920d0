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
package dev.kubejobs.gravitino;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * What the jars kubejobs-gravitino ships hold: the attached {@code shaded} jar (the one file for a
 * Gravitino server's {@code libs/}) and the module's plain jar. The bar is Gravitino main's own
 * Kubernetes executor: a shaded jar with its clashing libraries relocated, no SLF4J, and no server
 * class bundled.
 */
class ShadedJarContentsIT {
  static final Path SHADED = Path.of(System.getProperty("kubejobs.shadedJar"));
  static final Path PLAIN =
      Path.of(System.getProperty("kubejobs.shadedJar").replace("-shaded.jar", ".jar"));

  @Test
  void everyClassOfTheShadedJarIsKubeJobsOrRelocatedUnderIt() throws IOException {
    List<String> foreign = new ArrayList<>();
    for (String entry : entries(SHADED)) {
      if (entry.endsWith(".class") && !entry.startsWith("dev/kubejobs/")) {
        foreign.add(entry);
      }
    }

    assertThat(foreign).as("classes outside dev/kubejobs (not relocated)").isEmpty();
    assertThat(entries(SHADED))
        .as("kubejobs, client-java and the relocated libraries are inside")
        .contains(
            "dev/kubejobs/gravitino/KubeJobsSparkExecutor.class",
            "dev/kubejobs/core/KubeJobs.class",
            "dev/kubejobs/spark/SparkOperators.class",
            "dev/kubejobs/gravitino/shaded/io/kubernetes/client/util/ClientBuilder.class",
            "dev/kubejobs/gravitino/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
            "dev/kubejobs/gravitino/shaded/org/yaml/snakeyaml/Yaml.class",
            "dev/kubejobs/gravitino/shaded/com/google/gson/Gson.class",
            "dev/kubejobs/gravitino/shaded/okhttp3/OkHttpClient.class",
            "dev/kubejobs/gravitino/shaded/org/apache/commons/lang3/StringUtils.class");
  }

  @Test
  void noJarShipsAGravitinoClassSlf4jOrATestLibrary() throws IOException {
    for (Path jar : List.of(SHADED, PLAIN)) {
      assertThat(entries(jar))
          .as("%s", jar.getFileName())
          .noneMatch(e -> e.contains("org/apache/gravitino/"))
          .noneMatch(e -> e.contains("org/slf4j/"))
          .noneMatch(e -> e.contains("org.slf4j"))
          .noneMatch(e -> e.startsWith("dev/kubejobs/testkit/"))
          .noneMatch(e -> e.contains("/junit/") || e.contains("/assertj/"))
          .noneMatch(e -> e.contains("wiremock"));
    }
  }

  @Test
  void everyServiceFileIsKubeJobsOwnAndNamesOnlyItsOwnClasses() throws IOException {
    try (JarFile jar = new JarFile(SHADED.toFile())) {
      List<String> services =
          Collections.list(jar.entries()).stream()
              .map(JarEntry::getName)
              .filter(e -> e.startsWith("META-INF/services/") && !e.endsWith("/"))
              .toList();
      for (String service : services) {
        assertThat(service).startsWith("META-INF/services/dev.kubejobs.");
        try (InputStream in = jar.getInputStream(jar.getJarEntry(service))) {
          assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines())
              .as(service)
              .filteredOn(l -> !l.isBlank() && !l.startsWith("#"))
              .allMatch(l -> l.trim().startsWith("dev.kubejobs."));
        }
      }
    }
  }

  @Test
  void theShadedJarIsNotMultiReleaseSoNoUnrelocatedVersionedCopyCanLoad() throws IOException {
    try (JarFile jar = new JarFile(SHADED.toFile())) {
      assertThat(jar.isMultiRelease()).isFalse();
      assertThat(Collections.list(jar.entries()))
          .extracting(JarEntry::getName)
          .noneMatch(e -> e.startsWith("META-INF/versions/"));
    }
  }

  /** The size docs/gravitino.md promises the deployable jar stays under: {@value} bytes. */
  static final long MAX_SHADED_BYTES = 22_000_000;

  @Test
  void theShadedJarStaysUnderTheSizeTheDocsGive() throws IOException {
    long size = Files.size(SHADED);
    System.out.printf("%s: %,d bytes%n", SHADED.getFileName(), size);
    assertThat(size).isLessThan(MAX_SHADED_BYTES);
    assertThat(Files.readString(Path.of(System.getProperty("kubejobs.docs"), "gravitino.md")))
        .contains(String.format(java.util.Locale.ROOT, "under **%,d bytes**", MAX_SHADED_BYTES));
  }

  /**
   * client-java's protobuf models (client-java-proto), protobuf and client-java's {@code
   * ProtoClient}, their only reader, are left out: no class kept refers to them, so none can fail
   * to load for their absence.
   */
  @Test
  void theProtobufModelsAreLeftOutAndNoClassKeptRefersToThem() throws IOException {
    List<String> dropped =
        List.of(
            "dev/kubejobs/gravitino/shaded/com/google/protobuf/",
            "dev/kubejobs/gravitino/shaded/io/kubernetes/client/proto/",
            "dev/kubejobs/gravitino/shaded/io/kubernetes/client/ProtoClient");
    List<String> referring = new ArrayList<>();
    try (JarFile jar = new JarFile(SHADED.toFile())) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        assertThat(dropped).noneMatch(d -> entry.getName().startsWith(d));
        if (entry.getName().endsWith(".class")) {
          try (InputStream in = jar.getInputStream(entry)) {
            // class names in the constant pool are UTF-8 (modified, the same for ASCII names)
            String pool = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            if (dropped.stream().anyMatch(pool::contains)) {
              referring.add(entry.getName());
            }
          }
        }
      }
    }
    assertThat(referring).as("classes referring to what was left out").isEmpty();
  }

  /**
   * Of Bouncy Castle only the packages client-java's {@code SSLUtils} reaches to read a client key
   * are kept ({@link ShadedJarCredentialsIT} makes each key form complete a TLS handshake through
   * the jar): its post-quantum, legacy, JCE provider, EC arithmetic and crypto engine packages,
   * among others, are left out.
   */
  @Test
  void bouncyCastleKeepsTheKeyReadingPackagesOnly() throws IOException {
    String bc = "dev/kubejobs/gravitino/shaded/org/bouncycastle/";
    assertThat(entries(SHADED))
        .contains(
            bc + "openssl/PEMParser.class",
            bc + "openssl/jcajce/JcaPEMKeyConverter.class",
            bc + "asn1/sec/ECPrivateKey.class",
            bc + "asn1/pkcs/RSAPrivateKey.class")
        .noneMatch(e -> e.startsWith(bc + "pqc/"))
        .noneMatch(e -> e.startsWith(bc + "jcajce/provider/"))
        .noneMatch(e -> e.startsWith(bc + "jce/provider/"))
        .noneMatch(e -> e.startsWith(bc + "x509/"))
        .noneMatch(e -> e.startsWith(bc + "cms/"))
        .noneMatch(e -> e.startsWith(bc + "math/"))
        .noneMatch(e -> e.startsWith(bc + "crypto/"));
  }

  static List<String> entries(Path jar) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      return Collections.list(file.entries()).stream().map(JarEntry::getName).toList();
    }
  }
}
