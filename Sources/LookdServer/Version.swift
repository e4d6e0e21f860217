/// The version lookd reports (`lookd --version`, the OpenAPI document, SARIF output).
public let lookdVersion = "0.2.0"
