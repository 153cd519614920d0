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

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubejobs.core.spi.KubernetesNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The name rules of {@link KubernetesNames} at their boundaries, against apimachinery's {@code
 * pkg/util/validation/validation.go} ({@code IsDNS1123Label}, {@code IsDNS1123Subdomain}, {@code
 * IsDNS1035Label}, {@code IsQualifiedName}, {@code IsValidLabelValue}) and its tests in {@code
 * validation_test.go}.
 */
class KubernetesNamesTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "0", "etl", "a-b", "a--b", "1-2", "123-abc"})
  void dns1123LabelAcceptsLowerCaseLettersDigitsAndInnerDashes(String value) {
    assertThat(KubernetesNames.checkDns1123Label(value)).isEmpty();
    assertThat(KubernetesNames.isDns1123Label(value)).isTrue();
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "-a", "a-", "-", "a.b", "A", "etL", "a_b", "a b", "a/b", "é"})
  void dns1123LabelRefusesEmptyDashAtAnEndDotsUpperCaseAndOtherCharacters(String value) {
    assertThat(KubernetesNames.isDns1123Label(value)).isFalse();
    assertThat(KubernetesNames.checkDns1123Label(value)).isPresent();
  }

  @Test
  void dns1123LabelIsAtMost63Characters() {
    assertThat(KubernetesNames.isDns1123Label("a".repeat(63))).isTrue();
    assertThat(KubernetesNames.checkDns1123Label("a".repeat(64)))
        .hasValue("must be no more than 63 characters");
  }

  @Test
  void dns1123LabelReasonNamesTheRule() {
    assertThat(KubernetesNames.checkDns1123Label("ETL"))
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .startsWith("a lowercase RFC 1123 label must consist of lower case")
                    .contains("must start and end with an alphanumeric character"));
    assertThat(KubernetesNames.checkDns1123Label(null)).hasValue("must not be null");
  }

  @Test
  void aTooLongValueOfBadCharactersGetsBothReasons() {
    assertThat(KubernetesNames.checkDns1123Label("A".repeat(64)))
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .startsWith("must be no more than 63 characters; a lowercase RFC 1123 label"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "example.com", "spark.apache.org", "a-1.b-2.c", "1.2.3"})
  void dns1123SubdomainAcceptsLabelsJoinedByDots(String value) {
    assertThat(KubernetesNames.isDns1123Subdomain(value)).isTrue();
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", ".a", "a.", "a..b", "-a.b", "a-.b", "a.-b", "A.b", "a_b.c", "a/b"})
  void dns1123SubdomainRefusesEmptyLabelsDashesAtALabelsEndAndUpperCase(String value) {
    assertThat(KubernetesNames.isDns1123Subdomain(value)).isFalse();
  }

  @Test
  void dns1123SubdomainIsAtMost253CharactersWithLabelsOfAnyLength() {
    String at253 =
        "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);
    assertThat(at253).hasSize(253);
    assertThat(KubernetesNames.isDns1123Subdomain(at253)).isTrue();
    assertThat(KubernetesNames.checkDns1123Subdomain(at253 + "d"))
        .hasValue("must be no more than 253 characters");
    // apimachinery's subdomain format does not bound a label's length: one of 253 is a subdomain.
    assertThat(KubernetesNames.isDns1123Subdomain("a".repeat(253))).isTrue();
    assertThat(KubernetesNames.isDns1123Subdomain("a".repeat(254))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "kj", "a-1", "abc-123"})
  void dns1035LabelAcceptsALetterFirst(String value) {
    assertThat(KubernetesNames.isDns1035Label(value)).isTrue();
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "1a", "0", "-a", "a-", "a.b", "KJ", "a_b"})
  void dns1035LabelRefusesADigitFirstAndWhatADns1123LabelRefuses(String value) {
    assertThat(KubernetesNames.isDns1035Label(value)).isFalse();
  }

  @Test
  void dns1035LabelIsAtMost63Characters() {
    assertThat(KubernetesNames.isDns1035Label("a".repeat(63))).isTrue();
    assertThat(KubernetesNames.checkDns1035Label("a".repeat(64)))
        .hasValue("must be no more than 63 characters");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a",
        "A",
        "MyName",
        "my.name",
        "123-abc",
        "a_b",
        "app.kubernetes.io/managed-by",
        "kubejobs.dev/job-id",
        "example.com/MyName"
      })
  void qualifiedNameAcceptsANameWithAnOptionalSubdomainPrefix(String value) {
    assertThat(KubernetesNames.isQualifiedName(value)).isTrue();
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(
      strings = {
        "",
        "-a",
        "a-",
        "_a",
        "a_",
        ".a",
        "a.",
        "a b",
        "/a",
        "a/",
        "A.com/a",
        "-a.com/a",
        "a/b/c",
        "a.com/-b",
        "a..b/c"
      })
  void qualifiedNameRefusesBadNamesBadOrEmptyPrefixesAndTwoSlashes(String value) {
    assertThat(KubernetesNames.isQualifiedName(value)).isFalse();
  }

  @Test
  void qualifiedNameReasonsNameThePart() {
    assertThat(KubernetesNames.checkQualifiedName("/a")).hasValue("prefix part must be non-empty");
    assertThat(KubernetesNames.checkQualifiedName("a.com/"))
        .hasValueSatisfying(
            r -> assertThat(r).startsWith("name part must be non-empty; name part"));
    assertThat(KubernetesNames.checkQualifiedName("A.com/a"))
        .hasValueSatisfying(r -> assertThat(r).startsWith("prefix part a lowercase RFC 1123"));
    assertThat(KubernetesNames.checkQualifiedName("a/b/c"))
        .hasValueSatisfying(r -> assertThat(r).startsWith("a qualified name must consist of"));
  }

  @Test
  void qualifiedNameHasANameOfAtMost63AndAPrefixOfAtMost253Characters() {
    assertThat(KubernetesNames.isQualifiedName("a".repeat(63))).isTrue();
    assertThat(KubernetesNames.checkQualifiedName("a".repeat(64)))
        .hasValue("name part must be no more than 63 characters");
    String prefix253 = "p".repeat(253);
    assertThat(KubernetesNames.isQualifiedName(prefix253 + "/" + "a".repeat(63))).isTrue();
    assertThat(KubernetesNames.checkQualifiedName(prefix253 + "p/a"))
        .hasValue("prefix part must be no more than 253 characters");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a", "A", "MyValue", "my_value", "12345", "a.b-c_d", "gravitino-a"})
  void labelValueAcceptsEmptyOrLettersDigitsDashUnderscoreDot(String value) {
    assertThat(KubernetesNames.isLabelValue(value)).isTrue();
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"-a", "a-", "_a", "a_", ".a", "a.", "a b", "a/b", "a:b", "é"})
  void labelValueRefusesAPunctuationEndAndOtherCharacters(String value) {
    assertThat(KubernetesNames.isLabelValue(value)).isFalse();
  }

  @Test
  void labelValueIsAtMost63Characters() {
    assertThat(KubernetesNames.isLabelValue("A".repeat(63))).isTrue();
    assertThat(KubernetesNames.checkLabelValue("A".repeat(64)))
        .hasValue("must be no more than 63 characters");
  }
}
