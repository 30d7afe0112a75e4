# Install rules: headers, both library forms, the CMake package (accord::accord and
# accord::accord_shared) and accord.pc. Included from the top-level CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(ACCORD_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/accord)

# Every public header, whichever module added it.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/accord DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/include/accord/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/accord)

install(TARGETS ${ACCORD_LIBRARY_TARGETS} EXPORT accordTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The accord command, when it is built; a program, so not part of the exported package.
if(TARGET accord-cli)
  install(TARGETS accord-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT accordTargets NAMESPACE accord:: DESTINATION ${ACCORD_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/accordConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/accordConfig.cmake
                              INSTALL_DESTINATION ${ACCORD_CMAKE_DIR})
# While accord is 0.x a minor release may break the API (semver item 4), so a request for 0.1 is
# met by any 0.1.z and by nothing else. SameMajorVersion would hand a 0.1 consumer 0.2.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/accordConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/accordConfig.cmake ${PROJECT_BINARY_DIR}/accordConfigVersion.cmake
        DESTINATION ${ACCORD_CMAKE_DIR})

# accord.pc finds its prefix from its own location, so `cmake --install --prefix DIR` (or moving
# the tree) still yields a working file. Absolute LIBDIR/INCLUDEDIR settings are kept as given.
set(ACCORD_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
  set(ACCORD_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
else()
  file(RELATIVE_PATH ACCORD_PC_UP /prefix/${ACCORD_PC_DIR} /prefix)  # e.g. ../..
  string(REGEX REPLACE "/$" "" ACCORD_PC_UP ${ACCORD_PC_UP})
  set(ACCORD_PC_PREFIX "\${pcfiledir}/${ACCORD_PC_UP}")
endif()
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE ${CMAKE_INSTALL_${kind}})
    set(ACCORD_PC_${kind} ${CMAKE_INSTALL_${kind}})
  else()
    set(ACCORD_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/accord.pc.in ${PROJECT_BINARY_DIR}/accord.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/accord.pc DESTINATION ${ACCORD_PC_DIR})
