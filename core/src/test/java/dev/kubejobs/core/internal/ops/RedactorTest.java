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
package dev.kubejobs.core.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kubejobs.core.ApiUnavailableException;
import dev.kubejobs.core.ExecutionId;
import dev.kubejobs.core.JobConflictException;
import dev.kubejobs.core.JobRejectedException;
import dev.kubejobs.core.KubeJobsException;
import dev.kubejobs.core.testing.TestJobKind;
import org.junit.jupiter.api.Test;

/**
 * Which values of a manifest submit masks in the server's answers, and that every part of an
 * exception (message, causes, suppressed, stack) is masked and kept, also when the exception graph
 * is cyclic or deep.
 */
class RedactorTest {
  private static final ExecutionId ID = ExecutionId.of("test", TestJobKind.KIND, "etl", "kj-job-1");

  private static Redactor of(String manifestJson) {
    return Redactor.of(JsonParser.parseString(manifestJson).getAsJsonObject());
  }

  /**
   * A refused submit passes the server's text on masked, then capped (a webhook may quote the whole
   * manifest, megabytes of it): a secret in the kept head and tail is masked, and no cut leaves the
   * halves of a secret unmasked, since the mask comes first.
   */
  @Test
  void aRefusedSubmitsFiveMegabyteMessageIsMaskedThenCappedHeadAndTailKept() {
    Redactor r = of("{\"spec\":{\"sparkConf\":{\"spark.db.password\":\"hunter22-secret\"}}}");
    String middle = "x".repeat(5_000_000);
    String message =
        "admission webhook \"v.example.com\" denied the request: password=hunter22-secret "
            + middle.substring(0, 2_500_000)
            + "hunter22-secret"
            + middle.substring(2_500_000)
            + " password=hunter22-secret end";

    KubeJobsException out =
        r.scrub(
            new JobRejectedException(ID, JobRejectedException.Reason.INVALID, 422, message, null));

    assertThat(out.getMessage())
        .hasSizeLessThanOrEqualTo(dev.kubejobs.core.diagnosis.Messages.MAX_MESSAGE_CHARS)
        .startsWith("admission webhook \"v.example.com\" denied the request: password=****")
        .endsWith(" password=**** end")
        .doesNotContain("hunter22")
        .doesNotContain("hunter");
  }

  /** A long text without any secret is capped too: scrub does not hand it on whole. */
  @Test
  void aLongRefusalWithoutSecretsIsCappedAll() {
    Redactor r = of("{\"spec\":{\"sparkConf\":{\"spark.db.password\":\"hunter22-secret\"}}}");
    String message = "quota: " + "y".repeat(1_000_000) + " :tail";

    KubeJobsException out = r.scrub(new ApiUnavailableException(ID, message, true, null));

    assertThat(out.getMessage())
        .hasSizeLessThanOrEqualTo(dev.kubejobs.core.diagnosis.Messages.MAX_MESSAGE_CHARS)
        .startsWith("quota: yyy")
        .endsWith("yyy :tail");
  }

  @Test
  void aSecretLookingConfValueNestedInTheSpecIsMasked() {
    Redactor r =
        of("{\"spec\":{\"sparkConf\":{\"spark.hadoop.fs.s3a.secret.key\":\"AKIAXYZ123\"}}}");

    assertThat(r.redact("webhook refused spark.hadoop.fs.s3a.secret.key=AKIAXYZ123"))
        .isEqualTo("webhook refused spark.hadoop.fs.s3a.secret.key=" + Redactor.MASK);
  }

  @Test
  void theValueOfANamedEnvironmentVariableInAnArrayIsMasked() {
    Redactor r =
        of(
            "{\"spec\":{\"driver\":{\"env\":[{\"name\":\"LOG_LEVEL\",\"value\":\"debug-all\"},"
                + "{\"name\":\"DB_PASSWORD\",\"value\":\"hunter22\"}]}}}");

    assertThat(r.redact("env DB_PASSWORD=hunter22 LOG_LEVEL=debug-all"))
        .isEqualTo("env DB_PASSWORD=" + Redactor.MASK + " LOG_LEVEL=debug-all");
  }

  @Test
  void keysAreMatchedInAnyCaseAndEachSecretWordCounts() {
    Redactor r =
        of(
            "{\"a\":{\"Password\":\"p-value-1\",\"API_TOKEN\":\"t-value-2\","
                + "\"credentialsFile\":\"c-value-3\",\"sshKey\":\"k-value-4\","
                + "\"MySecret\":\"s-value-5\",\"image\":\"busybox-6\"}}");

    assertThat(r.redact("p-value-1 t-value-2 c-value-3 k-value-4 s-value-5 busybox-6"))
        .isEqualTo("**** **** **** **** **** busybox-6");
  }

  @Test
  void nonStringValuesOfSecretKeysAreNotCollectedButTheirObjectsAreSearched() {
    Redactor r =
        of(
            "{\"tokenCount\":123456,\"secretRef\":{\"name\":\"mounted\",\"inner\":{\"token\":"
                + "\"deep-token\"}},\"passwords\":[\"in-array\"],\"keyed\":null,"
                + "\"env\":[{\"name\":\"A_TOKEN\",\"value\":98765}]}");

    assertThat(r.redact("123456 mounted deep-token in-array 98765"))
        .isEqualTo("123456 mounted **** in-array 98765");
  }

  @Test
  void valuesShorterThanFourCharactersAreLeftAloneAndFourAreMasked() {
    Redactor r = of("{\"password\":\"abc\",\"token\":\"wxyz\"}");

    assertThat(r.redact("abc wxyz")).isEqualTo("abc " + Redactor.MASK);
  }

  @Test
  void aSecretContainingAnotherIsMaskedWhole() {
    Redactor r = of("{\"token\":\"abcd\",\"secret\":\"abcdefgh\"}");

    assertThat(r.redact("x abcdefgh y abcd")).isEqualTo("x **** y ****");
  }

  @Test
  void withoutSecretsOrTextRedactReturnsItsInput() {
    assertThat(of("{\"spec\":{\"image\":\"busybox\"}}").redact("busybox")).isEqualTo("busybox");
    assertThat(of("{\"token\":\"abcdef\"}").redact(null)).isNull();
  }

  @Test
  void anExceptionWithoutASecretIsReturnedAsItIs() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    JobRejectedException clean =
        new JobRejectedException(
            ID, JobRejectedException.Reason.INVALID, 422, "bad image", new RuntimeException("io"));
    clean.addSuppressed(new IllegalStateException("nothing secret"));

    assertThat(r.scrub(clean)).isSameAs(clean);
  }

  @Test
  void aRejectionQuotingASecretIsCopiedWithEveryPartMasked() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    RuntimeException cause = new RuntimeException("cause says s3cr3t-value");
    cause.addSuppressed(new IllegalStateException("suppressed cause says s3cr3t-value"));
    JobRejectedException e =
        new JobRejectedException(
            ID, JobRejectedException.Reason.INVALID, 422, "refused s3cr3t-value", cause);
    e.addSuppressed(new IllegalArgumentException("also s3cr3t-value"));

    KubeJobsException out = r.scrub(e);

    assertThat(out)
        .isInstanceOfSatisfying(
            JobRejectedException.class,
            x -> {
              assertThat(x.reason()).isEqualTo(JobRejectedException.Reason.INVALID);
              assertThat(x.code()).isEqualTo(422);
            })
        .hasMessage("refused ****");
    assertThat(out.executionId()).contains(ID);
    assertThat(out.getStackTrace()).isEqualTo(e.getStackTrace());
    assertThat(out.getCause())
        .isInstanceOf(Redactor.Redacted.class)
        .hasMessage("java.lang.RuntimeException: cause says ****");
    assertThat(out.getCause().getStackTrace()).isEqualTo(cause.getStackTrace());
    assertThat(out.getCause().getSuppressed())
        .singleElement()
        .satisfies(
            s ->
                assertThat(s)
                    .hasMessage("java.lang.IllegalStateException: suppressed cause says ****"));
    assertThat(out.getSuppressed())
        .singleElement()
        .satisfies(s -> assertThat(s).hasMessage("java.lang.IllegalArgumentException: also ****"));
  }

  @Test
  void anUnavailableErrorWithASecretOnlyInItsCauseKeepsWhetherItMayHaveBeenApplied() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    ApiUnavailableException e =
        new ApiUnavailableException(
            ID, "no answer", true, new RuntimeException("echo s3cr3t-value"));

    KubeJobsException out = r.scrub(e);

    assertThat(out).isNotSameAs(e).hasMessage("no answer");
    assertThat(((ApiUnavailableException) out).mayHaveBeenApplied()).isTrue();
    assertThat(out.executionId()).contains(ID);
    assertThat(out.getCause()).hasMessage("java.lang.RuntimeException: echo ****");
  }

  @Test
  void aSecretOnlyInASuppressedExceptionIsFound() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    ApiUnavailableException e = new ApiUnavailableException(ID, "no answer", false, null);
    e.addSuppressed(new RuntimeException("clean"));
    e.addSuppressed(new RuntimeException("echo s3cr3t-value"));

    KubeJobsException out = r.scrub(e);

    assertThat(out).isNotSameAs(e);
    assertThat(out.getCause()).isNull();
    assertThat(out.getSuppressed())
        .extracting(Throwable::getMessage)
        .containsExactly(
            "java.lang.RuntimeException: clean", "java.lang.RuntimeException: echo ****");
  }

  @Test
  void otherSubmitErrorsCarryNoServerTextAndAreReturnedAsTheyAre() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    JobConflictException e =
        new JobConflictException(
            ID, JobConflictException.Reason.OTHER_JOB, "taken by s3cr3t-value", null);

    assertThat(r.scrub(e)).isSameAs(e);
  }

  @Test
  void aSecretTenCausesDeepIsFoundAndTwelveLevelsOfCausesWithTheirSuppressedAreKept() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    // e (depth 0) → c1 … c12; only c10 (depth 10) names the secret; c11 suppresses one.
    Throwable deepest = null;
    for (int level = 12; level >= 1; level--) {
      deepest =
          new RuntimeException(level == 10 ? "level 10 s3cr3t-value" : "level " + level, deepest);
      if (level == 11) {
        deepest.addSuppressed(new RuntimeException("suppressed at level 11"));
      }
    }
    ApiUnavailableException e = new ApiUnavailableException(ID, "no answer", false, deepest);

    KubeJobsException out = r.scrub(e);

    assertThat(out).isNotSameAs(e);
    int levels = 0;
    for (Throwable t = out.getCause(); t != null; t = t.getCause()) {
      levels++;
      assertThat(t.getMessage()).doesNotContain("s3cr3t-value");
    }
    assertThat(levels).isEqualTo(12);
    Throwable level11 = out.getCause();
    for (int level = 1; level < 11; level++) {
      level11 = level11.getCause();
    }
    assertThat(level11.getSuppressed()).hasSize(1);
  }

  @Test
  void cyclicCausesAndSuppressedExceptionsWithoutASecretEndTheSearch() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    a.addSuppressed(b);
    b.addSuppressed(a);
    ApiUnavailableException clean = new ApiUnavailableException(ID, "no answer", false, a);

    assertThat(r.scrub(clean)).isSameAs(clean);
  }

  /**
   * A cycle through the suppressed exceptions is copied once, not followed until the stack ends.
   */
  @Test
  void aSecretInACyclicExceptionGraphIsMaskedWithoutOverflowingTheStack() {
    Redactor r = of("{\"token\":\"s3cr3t-value\"}");
    RuntimeException c = new RuntimeException("c s3cr3t-value");
    RuntimeException d = new RuntimeException("d", c);
    c.initCause(d);
    c.addSuppressed(d);
    d.addSuppressed(c);
    ApiUnavailableException leaking = new ApiUnavailableException(ID, "no answer", false, c);

    KubeJobsException out = r.scrub(leaking);

    assertThat(out.getCause()).hasMessage("java.lang.RuntimeException: c ****");
  }

  @Test
  void aManifestWithoutSecretsNeverChangesAnException() {
    JsonObject manifest = new JsonObject();
    manifest.addProperty("image", "busybox");
    ApiUnavailableException e = new ApiUnavailableException(ID, "busybox", false, null);

    assertThat(Redactor.of(manifest).scrub(e)).isSameAs(e);
  }
}
