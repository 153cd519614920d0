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

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.apache.gravitino.connector.job.JobExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The credentials a Gravitino server hands the shaded jar reach the API server through the jar's
 * own (relocated, trimmed) client-java and Bouncy Castle: a kubeconfig whose user has an EC or an
 * RSA client key, in each PEM form client-java's {@code SSLUtils} parses through Bouncy Castle
 * ({@code EC PRIVATE KEY} (SEC1), {@code RSA PRIVATE KEY} (PKCS#1), {@code PRIVATE KEY} (PKCS#8)),
 * completes a TLS handshake with client authentication against a local HTTPS server that trusts
 * only that certificate; and the in-cluster service account's pieces (a CA file and a token file)
 * authenticate a request. The executor is loaded as {@link GravitinoServerLoadingIT} loads it: by a
 * class loader on the server's libraries and the shaded jar. Keys and self-signed certificates are
 * made by the JDK's {@code keytool}; the SEC1 and PKCS#1 forms are cut from the JDK's PKCS#8.
 */
class ShadedJarCredentialsIT {
  static final Path SHADED = Path.of(System.getProperty("kubejobs.shadedJar"));
  static final Path SERVER_LIBS = Path.of(System.getProperty("kubejobs.serverLibs"));
  static final char[] PASS = "changeit".toCharArray();

  @TempDir Path dir;

  private HttpsServer https;
  private final List<String> clientSubjects = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private X509Certificate serverCert;

  enum KeyForm {
    EC_SEC1("EC", "EC PRIVATE KEY"),
    EC_PKCS8("EC", "PRIVATE KEY"),
    RSA_PKCS1("RSA", "RSA PRIVATE KEY"),
    RSA_PKCS8("RSA", "PRIVATE KEY");

    final String algorithm;
    final String pemType;

    KeyForm(String algorithm, String pemType) {
      this.algorithm = algorithm;
      this.pemType = pemType;
    }
  }

  @BeforeEach
  void startHttpsServer() throws Exception {
    KeyStore serverKeys =
        keytool("server", "RSA", "CN=localhost", "san=dns:localhost,ip:127.0.0.1");
    serverCert = (X509Certificate) serverKeys.getCertificate("server");
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    for (KeyForm form : KeyForm.values()) {
      KeyStore client = clientKeys(form);
      trusted.setCertificateEntry(form.name(), client.getCertificate(form.name()));
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(serverKeys, PASS);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trusted);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);

    https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    https.setHttpsConfigurator(
        new HttpsConfigurator(tls) {
          @Override
          public void configure(HttpsParameters params) {
            SSLParameters ssl = tls.getDefaultSSLParameters();
            // asked, not needed: the in-cluster client sends a token and no certificate
            ssl.setWantClientAuth(true);
            params.setSSLParameters(ssl);
          }
        });
    https.createContext(
        "/",
        exchange -> {
          try {
            var peer = ((HttpsExchange) exchange).getSSLSession();
            try {
              clientSubjects.add(
                  ((X509Certificate) peer.getPeerCertificates()[0])
                      .getSubjectX500Principal()
                      .getName());
            } catch (javax.net.ssl.SSLPeerUnverifiedException none) {
              // no client certificate: a token request
            }
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            if (auth != null) {
              authorizations.add(auth);
            }
            byte[] body =
                ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                        + "\"reason\":\"NotFound\",\"code\":404}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(404, body.length);
            exchange.getResponseBody().write(body);
          } finally {
            exchange.close();
          }
        });
    https.start();
  }

  @AfterEach
  void stopHttpsServer() {
    https.stop(0);
  }

  @ParameterizedTest
  @EnumSource(KeyForm.class)
  void aKubeconfigWithAClientKeyCompletesAHandshakeThroughTheShadedJar(KeyForm form)
      throws Exception {
    // given: a kubeconfig whose user holds a client certificate and its key in this PEM form
    KeyStore client = clientKeys(form);
    X509Certificate cert = (X509Certificate) client.getCertificate(form.name());
    PrivateKey key = (PrivateKey) client.getKey(form.name(), PASS);
    Path kubeconfig = dir.resolve("kubeconfig-" + form);
    Files.writeString(
        kubeconfig,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: tls",
            "  cluster:",
            "    server: https://localhost:" + https.getAddress().getPort(),
            "    certificate-authority-data: "
                + base64(pem("CERTIFICATE", serverCert.getEncoded())),
            "users:",
            "- name: tls",
            "  user:",
            "    client-certificate-data: " + base64(pem("CERTIFICATE", cert.getEncoded())),
            "    client-key-data: " + base64(pem(form.pemType, keyBytes(form, key, cert))),
            "contexts:",
            "- name: tls",
            "  context:",
            "    cluster: tls",
            "    user: tls",
            "current-context: tls",
            ""));

    // when: the server stand-in loads the shaded jar and the executor asks the API server
    RuntimeException answer = null;
    try (URLClassLoader server = GravitinoServerStandIn.libsLoader(SERVER_LIBS, SHADED);
        JobExecutor executor =
            GravitinoServerStandIn.createExecutor(conf(kubeconfig.toString()), server)) {
      try {
        executor.getJobExecutionInfo(
            "prod/sparkapplications.spark.apache.org/gravitino-jobs/kj-job-1");
      } catch (RuntimeException expected) {
        // the stand-in answers 404: only the handshake matters here
        answer = expected;
      }
    }

    // then: the handshake presented this key's certificate
    assertThat(clientSubjects)
        .as("client certificates the server saw; the executor's call ended with %s", answer)
        .contains(cert.getSubjectX500Principal().getName());
  }

  /**
   * The in-cluster configuration ({@code ClientBuilder.cluster()}) reads the environment variables
   * {@code KUBERNETES_SERVICE_HOST/PORT} and the fixed files under {@code
   * /var/run/secrets/kubernetes.io/serviceaccount}, which a test cannot point elsewhere; this test
   * runs the rest of it through the shaded jar's relocated classes: the base path from a host and a
   * port, the CA certificate's bytes, a {@code TokenFileAuthentication} on a token file, and a
   * request carrying the token over TLS verified against that CA.
   */
  @Test
  void theInClusterServiceAccountsCaAndTokenFileAuthenticateThroughTheShadedJar() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "service-account-token-1\n");
    String pkg = "dev.kubejobs.gravitino.shaded.io.kubernetes.client.";
    try (URLClassLoader server = GravitinoServerStandIn.libsLoader(SERVER_LIBS, SHADED)) {
      Class<?> builderType = Class.forName(pkg + "util.ClientBuilder", true, server);
      Class<?> authType = Class.forName(pkg + "util.credentials.Authentication", true, server);
      Object auth =
          Class.forName(pkg + "util.credentials.TokenFileAuthentication", true, server)
              .getConstructor(String.class)
              .newInstance(token.toString());
      Object builder = builderType.getConstructor().newInstance();
      // the part of cluster() after its two getenv calls (protected: it is cluster()'s own step)
      Method setBasePath = builderType.getDeclaredMethod("setBasePath", String.class, String.class);
      setBasePath.setAccessible(true);
      setBasePath.invoke(builder, "localhost", String.valueOf(https.getAddress().getPort()));
      builderType
          .getMethod("setCertificateAuthority", byte[].class)
          .invoke(builder, (Object) pem("CERTIFICATE", serverCert.getEncoded()));
      builderType.getMethod("setAuthentication", authType).invoke(builder, auth);
      Object client = builderType.getMethod("build").invoke(builder);
      Object http = client.getClass().getMethod("getHttpClient").invoke(client);

      // when: a request through the client's OkHttp (relocated), as every API call makes
      Class<?> requestBuilder =
          Class.forName("dev.kubejobs.gravitino.shaded.okhttp3.Request$Builder", true, server);
      assertThat(requestBuilder.getClassLoader()).isSameAs(server);
      Object rb = requestBuilder.getConstructor().newInstance();
      requestBuilder
          .getMethod("url", String.class)
          .invoke(rb, client.getClass().getMethod("getBasePath").invoke(client) + "/version");
      Object request = requestBuilder.getMethod("build").invoke(rb);
      Method newCall = http.getClass().getMethod("newCall", request.getClass());
      Object call = newCall.invoke(http, request);
      try (AutoCloseable response =
          (AutoCloseable) call.getClass().getMethod("execute").invoke(call)) {
        assertThat(response.getClass().getMethod("code").invoke(response)).isEqualTo(404);
      }
    }

    assertThat(authorizations).containsExactly("Bearer service-account-token-1");
  }

  private Map<String, String> conf(String kubeconfig) {
    String p = "gravitino.jobExecutor.kubejobs.";
    return Map.of(
        "gravitino.job.executor",
        "kubejobs",
        p + "class",
        GravitinoServerLoadingIT.CLASS,
        p + "kubeconfig",
        kubeconfig,
        p + "cluster",
        "prod",
        p + "operator",
        "apache");
  }

  private KeyStore clientKeys(KeyForm form) throws Exception {
    Path store = dir.resolve(form.name() + ".p12");
    if (!Files.exists(store)) {
      return keytool(form.name(), form.algorithm, "CN=kubejobs-" + form.name(), null);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASS);
    }
    return ks;
  }

  /** A key pair and its self-signed certificate, made by the JDK's keytool. */
  private KeyStore keytool(String alias, String algorithm, String dname, String ext)
      throws Exception {
    Path store = dir.resolve(alias + ".p12");
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                algorithm,
                "-keysize",
                algorithm.equals("EC") ? "256" : "2048",
                "-dname",
                dname,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                new String(PASS)));
    if (ext != null) {
      cmd.addAll(List.of("-ext", ext));
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("keytool: %s", out).isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASS);
    }
    return ks;
  }

  /** The key's DER in the form's PEM type: PKCS#8 as the JDK encodes it, or the inner key. */
  static byte[] keyBytes(KeyForm form, PrivateKey key, X509Certificate cert) {
    byte[] pkcs8 = key.getEncoded();
    return switch (form) {
      case EC_PKCS8, RSA_PKCS8 -> pkcs8;
      // PrivateKeyInfo ::= SEQUENCE { version, algorithm, privateKey OCTET STRING }: the octet
      // string holds PKCS#1's RSAPrivateKey
      case RSA_PKCS1 -> privateKeyOctets(pkcs8);
      case EC_SEC1 -> sec1((ECPrivateKey) key, (ECPublicKey) cert.getPublicKey());
    };
  }

  /**
   * SEC1's ECPrivateKey as openssl writes it for P-256: version 1, the private scalar, the curve's
   * OID as [0] and the public point as [1].
   */
  static byte[] sec1(ECPrivateKey key, ECPublicKey pub) {
    byte[] d = fixed(key.getS(), 32);
    ByteArrayOutputStream point = new ByteArrayOutputStream();
    point.write(0x04);
    point.writeBytes(fixed(pub.getW().getAffineX(), 32));
    point.writeBytes(fixed(pub.getW().getAffineY(), 32));
    byte[] p256 = {0x06, 0x08, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x03, 0x01, 0x07};
    byte[] bitString = concat(new byte[] {0x00}, point.toByteArray());
    return der(
        0x30,
        concat(
            new byte[] {0x02, 0x01, 0x01},
            der(0x04, d),
            der(0xa0, p256),
            der(0xa1, der(0x03, bitString))));
  }

  /** The content of the privateKey OCTET STRING of a DER PrivateKeyInfo. */
  static byte[] privateKeyOctets(byte[] pkcs8) {
    int[] pos = {0};
    header(pkcs8, pos); // SEQUENCE
    skip(pkcs8, pos); // version
    skip(pkcs8, pos); // algorithm
    int length = header(pkcs8, pos); // OCTET STRING
    return java.util.Arrays.copyOfRange(pkcs8, pos[0], pos[0] + length);
  }

  private static int header(byte[] der, int[] pos) {
    pos[0]++; // tag
    int first = der[pos[0]++] & 0xff;
    if (first < 0x80) {
      return first;
    }
    int length = 0;
    for (int i = 0; i < (first & 0x7f); i++) {
      length = (length << 8) | (der[pos[0]++] & 0xff);
    }
    return length;
  }

  private static void skip(byte[] der, int[] pos) {
    int length = header(der, pos);
    pos[0] += length;
  }

  private static byte[] der(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else if (n < 0x100) {
      out.write(0x81);
      out.write(n);
    } else {
      out.write(0x82);
      out.write(n >> 8);
      out.write(n & 0xff);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private static byte[] fixed(BigInteger value, int size) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[size];
    int from = Math.max(0, raw.length - size);
    System.arraycopy(raw, from, out, size - (raw.length - from), raw.length - from);
    return out;
  }

  static byte[] pem(String type, byte[] der) {
    return ("-----BEGIN "
            + type
            + "-----\n"
            + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END "
            + type
            + "-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
