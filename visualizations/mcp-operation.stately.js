import { createMachine } from 'xstate';
export default createMachine({
  "id": "mcpOperation",
  "initial": "credentials",
  "on": {
    "CANCEL": {
      "target": ".closing",
      "actions": "failCancelled"
    }
  },
  "states": {
    "credentials": {
      "meta": {
        "operation": "initialize"
      },
      "invoke": {
        "id": "resolveCredentials",
        "src": "resolveCredentials",
        "onDone": {
          "target": "streamable",
          "actions": "assignToken"
        },
        "onError": {
          "target": "closing",
          "actions": "failWithError"
        }
      },
      "after": {
        "HANDSHAKE_DEADLINE": {
          "target": "closing",
          "actions": "failTimeout"
        }
      }
    },
    "streamable": {
      "initial": "initializing",
      "on": {
        "BYTES_READ": [
          {
            "guard": "exceedsReadBudget",
            "target": "closing",
            "actions": "failTooLarge"
          },
          {
            "actions": "recordBytesRead"
          }
        ]
      },
      "states": {
        "initializing": {
          "meta": {
            "operation": "initialize"
          },
          "invoke": {
            "id": "postInitialize",
            "src": "exchange",
            "onDone": [
              {
                "guard": "isUnauthorized",
                "target": "#mcpOperation.closing",
                "actions": "failUnauthorized"
              },
              {
                "guard": "isFallbackStatus",
                "target": "#mcpOperation.legacy",
                "actions": [
                  "switchToLegacy",
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "endpoint"
                    }
                  }
                ]
              },
              {
                "guard": "isHttpError",
                "target": "#mcpOperation.closing",
                "actions": "failHttpStatus"
              },
              {
                "guard": "isResponse",
                "target": "notifying",
                "actions": [
                  "assignInitialized",
                  {
                    "type": "beginHandshakeStep",
                    "params": {
                      "operation": "notifications/initialized"
                    }
                  }
                ]
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "message": "MCP initialize ended without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": "failWithError"
            }
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "notifying": {
          "meta": {
            "operation": "notifications/initialized"
          },
          "invoke": {
            "id": "postInitialized",
            "src": "exchange",
            "onDone": {
              "target": "requesting",
              "actions": "beginRequest"
            },
            "onError": [
              {
                "guard": "isSizeFailure",
                "target": "#mcpOperation.closing",
                "actions": "failWithError"
              },
              {
                "target": "requesting",
                "actions": "beginRequest"
              }
            ]
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "requesting": {
          "invoke": {
            "id": "postRequest",
            "src": "exchange",
            "onDone": [
              {
                "guard": "isUnauthorized",
                "target": "#mcpOperation.closing",
                "actions": "failUnauthorized"
              },
              {
                "guard": "isHttpError",
                "target": "#mcpOperation.closing",
                "actions": "failHttpStatus"
              },
              {
                "guard": "hasNextPage",
                "target": "requesting",
                "reenter": true,
                "actions": "collectPage"
              },
              {
                "guard": "hasTooManyPages",
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "message": "MCP tools/list did not end"
                  }
                }
              },
              {
                "guard": "isResponse",
                "target": "#mcpOperation.closing",
                "actions": "succeed"
              },
              {
                "guard": "canResume",
                "target": "awaitingResume",
                "actions": "assignInterruption"
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "message": "MCP exchange ended without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": "failWithError"
            }
          },
          "after": {
            "REQUEST_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "awaitingResume": {
          "after": {
            "RESUME_DELAY": {
              "target": "resuming"
            },
            "REQUEST_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "resuming": {
          "invoke": {
            "id": "resumeRequest",
            "src": "exchange",
            "onDone": [
              {
                "guard": "isUnauthorized",
                "target": "#mcpOperation.closing",
                "actions": "failUnauthorized"
              },
              {
                "guard": "isHttpError",
                "target": "#mcpOperation.closing",
                "actions": "failHttpStatus"
              },
              {
                "guard": "hasNextPage",
                "target": "requesting",
                "reenter": true,
                "actions": "collectPage"
              },
              {
                "guard": "hasTooManyPages",
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "message": "MCP tools/list did not end"
                  }
                }
              },
              {
                "guard": "isResponse",
                "target": "#mcpOperation.closing",
                "actions": "succeed"
              },
              {
                "guard": "canResume",
                "target": "awaitingResume",
                "actions": "assignInterruption"
              },
              {
                "target": "#mcpOperation.closing",
                "actions": {
                  "type": "failProtocol",
                  "params": {
                    "message": "MCP exchange ended without a response"
                  }
                }
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": "failWithError"
            }
          },
          "after": {
            "REQUEST_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        }
      }
    },
    "legacy": {
      "initial": "connecting",
      "invoke": {
        "id": "legacyStream",
        "src": "legacyStream"
      },
      "on": {
        "BYTES_READ": [
          {
            "guard": "exceedsReadBudget",
            "target": "closing",
            "actions": "failTooLarge"
          },
          {
            "actions": "recordBytesRead"
          }
        ],
        "STREAM_REJECTED": [
          {
            "guard": "isUnauthorized",
            "target": "closing",
            "actions": "failUnauthorized"
          },
          {
            "target": "closing",
            "actions": "failHttpStatus"
          }
        ],
        "STREAM_ENDED": {
          "target": "closing",
          "actions": {
            "type": "failProtocol",
            "params": {
              "message": "MCP SSE stream ended without a response"
            }
          }
        },
        "STREAM_FAILED": {
          "target": "closing",
          "actions": "failWithError"
        }
      },
      "states": {
        "connecting": {
          "meta": {
            "operation": "endpoint"
          },
          "on": {
            "SSE_ENDPOINT": {
              "target": "endpointCheck",
              "actions": "assignEndpoint"
            }
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "endpointCheck": {
          "always": [
            {
              "guard": "isFencedEndpoint",
              "target": "initializing",
              "actions": {
                "type": "beginHandshakeStep",
                "params": {
                  "operation": "initialize"
                }
              }
            },
            {
              "target": "#mcpOperation.closing",
              "actions": "failEndpointOutsideFence"
            }
          ]
        },
        "initializing": {
          "meta": {
            "operation": "initialize"
          },
          "invoke": {
            "id": "postLegacyInitialize",
            "src": "exchange",
            "onDone": [
              {
                "guard": "isUnauthorized",
                "target": "#mcpOperation.closing",
                "actions": "failUnauthorized"
              },
              {
                "guard": "isHttpError",
                "target": "#mcpOperation.closing",
                "actions": "failHttpStatus"
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": "failWithError"
            }
          },
          "on": {
            "SSE_MESSAGE": {
              "guard": "isPendingResponse",
              "target": "initializeCheck",
              "actions": "assignReceived"
            }
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "initializeCheck": {
          "always": [
            {
              "guard": "isReceivedOk",
              "target": "notifying",
              "actions": [
                "assignInitialized",
                {
                  "type": "beginHandshakeStep",
                  "params": {
                    "operation": "notifications/initialized"
                  }
                }
              ]
            },
            {
              "target": "#mcpOperation.closing",
              "actions": "failReceived"
            }
          ]
        },
        "notifying": {
          "meta": {
            "operation": "notifications/initialized"
          },
          "invoke": {
            "id": "postLegacyInitialized",
            "src": "exchange",
            "onDone": {
              "target": "requesting",
              "actions": "beginRequest"
            },
            "onError": [
              {
                "guard": "isSizeFailure",
                "target": "#mcpOperation.closing",
                "actions": "failWithError"
              },
              {
                "target": "requesting",
                "actions": "beginRequest"
              }
            ]
          },
          "after": {
            "HANDSHAKE_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "requesting": {
          "invoke": {
            "id": "postLegacyRequest",
            "src": "exchange",
            "onDone": [
              {
                "guard": "isUnauthorized",
                "target": "#mcpOperation.closing",
                "actions": "failUnauthorized"
              },
              {
                "guard": "isHttpError",
                "target": "#mcpOperation.closing",
                "actions": "failHttpStatus"
              }
            ],
            "onError": {
              "target": "#mcpOperation.closing",
              "actions": "failWithError"
            }
          },
          "on": {
            "SSE_MESSAGE": {
              "guard": "isPendingResponse",
              "target": "responseCheck",
              "actions": "assignReceived"
            }
          },
          "after": {
            "REQUEST_DEADLINE": {
              "target": "#mcpOperation.closing",
              "actions": "failTimeout"
            }
          }
        },
        "responseCheck": {
          "always": [
            {
              "guard": "hasNextPage",
              "target": "requesting",
              "actions": "collectPage"
            },
            {
              "guard": "hasTooManyPages",
              "target": "#mcpOperation.closing",
              "actions": {
                "type": "failProtocol",
                "params": {
                  "message": "MCP tools/list did not end"
                }
              }
            },
            {
              "guard": "isReceivedOk",
              "target": "#mcpOperation.closing",
              "actions": "succeed"
            },
            {
              "target": "#mcpOperation.closing",
              "actions": "failReceived"
            }
          ]
        }
      }
    },
    "closing": {
      "always": [
        {
          "guard": "hasSession",
          "target": "endingSession"
        },
        {
          "target": "closed"
        }
      ]
    },
    "endingSession": {
      "invoke": {
        "id": "deleteSession",
        "src": "deleteSession",
        "onDone": {
          "target": "closed"
        },
        "onError": {
          "target": "closed"
        }
      },
      "after": {
        "SESSION_END_DEADLINE": {
          "target": "closed"
        }
      },
      "on": {
        "CANCEL": {
          "target": "closed"
        }
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});
