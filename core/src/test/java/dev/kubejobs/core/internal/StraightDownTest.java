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
package dev.kubejobs.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.KubeJobs;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A status read runs straight down: the transport package ({@code internal/kube}) never refers to
 * the operations package ({@code internal/ops}) that uses it, so nothing the gateway does can call
 * back into the cache or a job kind's mapper. Read from the compiled classes' constant pools (every
 * class, method, field and signature a class refers to is named there), not from the sources.
 */
class StraightDownTest {
  private static final String KUBE = "dev/kubejobs/core/internal/kube/";
  private static final String OPS = "dev/kubejobs/core/internal/ops/";

  @Test
  void noCompiledClassOfTheTransportPackageRefersToTheOperationsPackage() throws IOException {
    Map<String, Set<String>> kubeToOps = references(KUBE, OPS);

    assertThat(kubeToOps).as("classes of %s referring to %s", KUBE, OPS).isEmpty();
  }

  /** The scan sees references where they exist: the operations use the transport. */
  @Test
  void theScanFindsTheReferencesOfTheOperationsToTheTransport() throws IOException {
    Map<String, Set<String>> opsToKube = references(OPS, KUBE);

    assertThat(opsToKube).containsKey(OPS + "StatusCache.class");
    assertThat(opsToKube.get(OPS + "StatusCache.class")).anyMatch(n -> n.contains("ListPages"));
  }

  /** The classes under {@code from} whose constant pools name something under {@code to}. */
  private static Map<String, Set<String>> references(String from, String to) throws IOException {
    Path root = classesRoot();
    List<Path> classes = new ArrayList<>();
    try (Stream<Path> files = Files.list(root.resolve(from))) {
      files.filter(f -> f.toString().endsWith(".class")).forEach(classes::add);
    }
    assertThat(classes).as("compiled classes under %s", from).isNotEmpty();
    Map<String, Set<String>> found = new TreeMap<>();
    for (Path file : classes) {
      Set<String> named = new TreeSet<>();
      try (InputStream in = Files.newInputStream(file)) {
        for (String utf8 : constantPoolTexts(in)) {
          if (utf8.contains(to)) {
            named.add(utf8);
          }
        }
      }
      if (!named.isEmpty()) {
        found.put(from + file.getFileName(), named);
      }
    }
    return found;
  }

  private static Path classesRoot() {
    try {
      return Paths.get(KubeJobs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The texts ({@code CONSTANT_Utf8}) of a class file's constant pool: class names, descriptors and
   * signatures among them (JVMS 4.4).
   */
  private static List<String> constantPoolTexts(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    List<String> texts = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> texts.add(in.readUTF()); // Utf8
        case 3, 4 -> in.skipNBytes(4); // Integer, Float
        case 5, 6 -> { // Long, Double: two slots
          in.skipNBytes(8);
          i++;
        }
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2); // Class, String, MethodType, Module, Package
        case 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4); // refs, NameAndType, (Invoke)Dynamic
        case 15 -> in.skipNBytes(3); // MethodHandle
        default -> throw new IOException("unknown constant pool tag " + tag + " at " + i);
      }
    }
    return texts;
  }
}
