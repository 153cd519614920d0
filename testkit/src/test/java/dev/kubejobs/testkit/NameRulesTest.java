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
package dev.kubejobs.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fake server's name rules at their boundaries, with the error strings of apimachinery's {@code
 * pkg/util/validation/validation.go} ({@code IsDNS1123Label}, {@code IsDNS1123Subdomain}, {@code
 * IsQualifiedName}, {@code IsValidLabelValue}; cases from its {@code validation_test.go}).
 */
class NameRulesTest {
  private static final String SUBDOMAIN_253 =
      "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);

  @ParameterizedTest
  @ValueSource(strings = {"a", "0", "ab", "a-b", "a--b", "1-2"})
  void dns1123LabelAcceptsUpTo63LowerCaseLettersDigitsAndInnerDashes(String value) {
    assertThat(NameRules.dns1123Label(value)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-a", "a-", "a.b", "A", "a_b", "a b"})
  void dns1123LabelRefusesEmptyADashAtAnEndDotsAndUpperCase(String value) {
    assertThat(NameRules.dns1123Label(value))
        .containsExactly(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
                + " and must start and end with an alphanumeric character (e.g. 'my-name',  or"
                + " '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }

  @Test
  void dns1123LabelIsAtMost63Characters() {
    assertThat(NameRules.dns1123Label("a".repeat(63))).isEmpty();
    assertThat(NameRules.dns1123Label("a".repeat(64)))
        .containsExactly("must be no more than 63 characters");
  }

  @Test
  void dns1123SubdomainIsAtMost253Characters() {
    assertThat(NameRules.dns1123Subdomain(SUBDOMAIN_253)).isEmpty();
    assertThat(NameRules.dns1123Subdomain(SUBDOMAIN_253 + "d"))
        .containsExactly("must be no more than 253 characters");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".a", "a.", "a..b", "-a", "a-", "a.-b", "A.b", "a_b"})
  void dns1123SubdomainRefusesEmptyLabelsADashAtALabelsEndAndUpperCase(String value) {
    assertThat(NameRules.dns1123Subdomain(value))
        .containsExactly(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                + " '-' or '.', and must start and end with an alphanumeric character (e.g."
                + " 'example.com', regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }

  @Test
  void aTooLongSubdomainOfBadCharactersGetsBothErrors() {
    assertThat(NameRules.dns1123Subdomain("A".repeat(254))).hasSize(2);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"a", "A", "simple", "now-with-dashes", "1-starts-with-num", "a_b", "a.b", "x/a"})
  void qualifiedNameAcceptsANameWithAnOptionalPrefix(String value) {
    assertThat(NameRules.qualifiedName(value)).isEmpty();
  }

  @Test
  void qualifiedNameHasANameOfAtMost63AndAPrefixOfAtMost253Characters() {
    assertThat(NameRules.qualifiedName(SUBDOMAIN_253 + "/" + "a".repeat(63))).isEmpty();
    assertThat(NameRules.qualifiedName("a".repeat(64)))
        .containsExactly("name part must be no more than 63 characters");
    assertThat(NameRules.qualifiedName(SUBDOMAIN_253 + "d/a"))
        .containsExactly("prefix part must be no more than 253 characters");
  }

  @Test
  void qualifiedNameErrorsNameThePart() {
    assertThat(NameRules.qualifiedName("/a")).containsExactly("prefix part must be non-empty");
    assertThat(NameRules.qualifiedName("a/"))
        .hasSize(2)
        .first()
        .isEqualTo("name part must be non-empty");
    assertThat(NameRules.qualifiedName("-a"))
        .singleElement()
        .asString()
        .startsWith("name part must");
    assertThat(NameRules.qualifiedName("A/a"))
        .singleElement()
        .asString()
        .startsWith("prefix part a lowercase RFC 1123 subdomain");
    assertThat(NameRules.qualifiedName("a/b/c"))
        .singleElement()
        .asString()
        .startsWith("a qualified name must consist of")
        .endsWith("with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a", "A", "simple", "now-with-dashes", "a_b", "a.b", "1.2.3"})
  void labelValueAcceptsEmptyOrLettersDigitsDashUnderscoreDot(String value) {
    assertThat(NameRules.labelValue(value)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"-a", "a-", "_a", "a_", ".a", "a.", "a b", "a/b", "a:b"})
  void labelValueRefusesAPunctuationEndAndOtherCharacters(String value) {
    assertThat(NameRules.labelValue(value)).containsExactly(NameRules.LABEL_VALUE_ERR);
  }

  @Test
  void labelValueIsAtMost63Characters() {
    assertThat(NameRules.labelValue("a".repeat(63))).isEmpty();
    assertThat(NameRules.labelValue("a".repeat(64)))
        .containsExactly("must be no more than 63 characters");
  }
}
